import { RequestUsage, type RequestUsageData } from './requestUsage.js';

/** Token accounting. A plain value class so providers can build it without depending on core. */
export interface UsageData {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  inputTokensDetails?: Record<string, number> | Array<Record<string, number>>;
  outputTokensDetails?: Record<string, number> | Array<Record<string, number>>;
  requestUsageEntries?: Array<RequestUsage | RequestUsageData> | undefined;
}

/** The snake_case spelling of a usage's fields (the API's). */
interface SnakeCaseUsage {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: Record<string, number> | Array<Record<string, number>>;
  output_tokens_details?: Record<string, number> | Array<Record<string, number>>;
  request_usage_entries?: Array<RequestUsage | RequestUsageData>;
}

export class Usage {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails: Array<Record<string, number>>;
  outputTokensDetails: Array<Record<string, number>>;
  /** Each model request's usage, in order (undefined until a request with tokens was added). */
  requestUsageEntries: RequestUsage[] | undefined;

  /** With no input every counter is zero; with an input, `requests` defaults to 1 (one model call). */
  constructor(input?: UsageData) {
    this.requests = input === undefined ? 0 : (input.requests ?? 1);
    // The API's own snake_case names are read when the camelCase ones are absent (as the reference does).
    const data = (input ?? {}) as UsageData & SnakeCaseUsage;
    this.inputTokens = data.inputTokens ?? data.input_tokens ?? 0;
    this.outputTokens = data.outputTokens ?? data.output_tokens ?? 0;
    this.totalTokens = data.totalTokens ?? data.total_tokens ?? this.inputTokens + this.outputTokens;
    this.inputTokensDetails = toDetailList(data.inputTokensDetails ?? data.input_tokens_details);
    this.outputTokensDetails = toDetailList(data.outputTokensDetails ?? data.output_tokens_details);
    const entries = (data.requestUsageEntries ?? data.request_usage_entries)?.map((entry) => (entry instanceof RequestUsage ? entry : new RequestUsage(entry)));
    this.requestUsageEntries = entries && entries.length > 0 ? entries : undefined;
  }

  static fromJSON(input: UsageData): Usage {
    return new Usage(input);
  }

  /** Adds another usage into this one (in place), as the reference does. */
  add(other: UsageData): void {
    this.requests += other.requests ?? 0;
    this.inputTokens += other.inputTokens ?? 0;
    this.outputTokens += other.outputTokens ?? 0;
    this.totalTokens += other.totalTokens ?? 0;
    this.inputTokensDetails.push(...toDetailList(other.inputTokensDetails));
    this.outputTokensDetails.push(...toDetailList(other.outputTokensDetails));
    if (other.requestUsageEntries && other.requestUsageEntries.length > 0) {
      (this.requestUsageEntries ??= []).push(...other.requestUsageEntries.map((entry) => new RequestUsage(entry)));
    } else if (other.requests === 1 && (other.totalTokens ?? 0) > 0) {
      // One request's usage: it becomes one entry.
      const [inputDetails] = toDetailList(other.inputTokensDetails);
      const [outputDetails] = toDetailList(other.outputTokensDetails);
      const entry: RequestUsageData = { inputTokens: other.inputTokens ?? 0, outputTokens: other.outputTokens ?? 0, totalTokens: other.totalTokens ?? 0 };
      if (inputDetails) entry.inputTokensDetails = inputDetails;
      if (outputDetails) entry.outputTokensDetails = outputDetails;
      const added = new RequestUsage(entry);
      // A first entry as a one-slot array: a run's usage is kept as long as its result (a paused
      // run's for as long as it waits), and an array grown by push reserves room for 17 entries.
      if (this.requestUsageEntries) this.requestUsageEntries.push(added);
      else this.requestUsageEntries = [added];
    }
  }

  toJSON(): Required<Pick<UsageData, 'requests' | 'inputTokens' | 'outputTokens' | 'totalTokens'>> & {
    inputTokensDetails: Array<Record<string, number>>;
    outputTokensDetails: Array<Record<string, number>>;
    requestUsageEntries?: RequestUsage[];
  } {
    return {
      requests: this.requests,
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      totalTokens: this.totalTokens,
      inputTokensDetails: this.inputTokensDetails,
      outputTokensDetails: this.outputTokensDetails,
      ...(this.requestUsageEntries ? { requestUsageEntries: this.requestUsageEntries } : {}),
    };
  }
}

function toDetailList(value: UsageData['inputTokensDetails']): Array<Record<string, number>> {
  if (value === undefined) return [];
  // Copies: a usage never shares a detail object with the usage or response it was read from.
  return (Array.isArray(value) ? value : [value]).map((details) => ({ ...details }));
}
