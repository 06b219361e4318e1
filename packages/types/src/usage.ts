/** Token accounting. A plain value class so providers can build it without depending on core. */
export interface UsageData {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  inputTokensDetails?: Record<string, number> | Array<Record<string, number>>;
  outputTokensDetails?: Record<string, number> | Array<Record<string, number>>;
}

export class Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails: Array<Record<string, number>>;
  outputTokensDetails: Array<Record<string, number>>;

  /** With no input every counter is zero; with an input, `requests` defaults to 1 (one model call). */
  constructor(input?: UsageData) {
    this.requests = input === undefined ? 0 : (input.requests ?? 1);
    input ??= {};
    this.inputTokens = input.inputTokens ?? 0;
    this.outputTokens = input.outputTokens ?? 0;
    this.totalTokens = input.totalTokens ?? this.inputTokens + this.outputTokens;
    this.inputTokensDetails = toDetailList(input.inputTokensDetails);
    this.outputTokensDetails = toDetailList(input.outputTokensDetails);
  }

  /** Adds another usage into this one (in place), as the reference does. */
  add(other: UsageData): void {
    this.requests += other.requests ?? 0;
    this.inputTokens += other.inputTokens ?? 0;
    this.outputTokens += other.outputTokens ?? 0;
    this.totalTokens += other.totalTokens ?? 0;
    this.inputTokensDetails.push(...toDetailList(other.inputTokensDetails));
    this.outputTokensDetails.push(...toDetailList(other.outputTokensDetails));
  }

  toJSON(): Required<Pick<UsageData, 'requests' | 'inputTokens' | 'outputTokens' | 'totalTokens'>> & {
    inputTokensDetails: Array<Record<string, number>>;
    outputTokensDetails: Array<Record<string, number>>;
  } {
    return {
      requests: this.requests,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      totalTokens: this.totalTokens,
      inputTokensDetails: this.inputTokensDetails,
      outputTokensDetails: this.outputTokensDetails,
    };
  }
}

function toDetailList(value: UsageData['inputTokensDetails']): Array<Record<string, number>> {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value];
}
