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
    // The API's snake_case names are read when the camelCase ones are absent.
    const data = input as (RequestUsageData & { input_tokens?: number; output_tokens?: number; total_tokens?: number; input_tokens_details?: Record<string, number>; output_tokens_details?: Record<string, number> }) | undefined;
    this.inputTokens = data?.inputTokens ?? data?.input_tokens ?? 0;
    this.outputTokens = data?.outputTokens ?? data?.output_tokens ?? 0;
    this.totalTokens = data?.totalTokens ?? data?.total_tokens ?? this.inputTokens + this.outputTokens;
    this.inputTokensDetails = { ...(data?.inputTokensDetails ?? data?.input_tokens_details) };
    this.outputTokensDetails = { ...(data?.outputTokensDetails ?? data?.output_tokens_details) };
    if (input?.endpoint !== undefined) this.endpoint = input.endpoint;
  }

  static fromJSON(input: RequestUsageData): RequestUsage {
    return new RequestUsage(input);
  }
}
