/** One model request's token counts (the reference's `RequestUsage`), kept per request in `Usage.requestUsageEntries`. */
export interface RequestUsageData {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  inputTokensDetails?: Record<string, number>;
  outputTokensDetails?: Record<string, number>;
  /** The endpoint that produced it (for example `responses.create`). */
  endpoint?: string;
}

export class RequestUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTokensDetails: Record<string, number>;
  outputTokensDetails: Record<string, number>;
  endpoint?: string;

  constructor(input?: RequestUsageData) {
    this.inputTokens = input?.inputTokens ?? 0;
    this.outputTokens = input?.outputTokens ?? 0;
    this.totalTokens = input?.totalTokens ?? this.inputTokens + this.outputTokens;
    this.inputTokensDetails = { ...input?.inputTokensDetails };
    this.outputTokensDetails = { ...input?.outputTokensDetails };
    if (input?.endpoint !== undefined) this.endpoint = input.endpoint;
  }

  static fromJSON(input: RequestUsageData): RequestUsage {
    return new RequestUsage(input);
  }
}
