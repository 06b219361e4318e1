/**
 * Retries of a failed model request, decided by a policy (the reference's `modelSettings.retry`
 * with `policy`). Without a policy a provider applies its own (Baton's OpenAI models retry
 * retryable failures); with one, the runner decides every retry and the provider makes one
 * attempt per call.
 */
export interface ModelRetrySettings {
  /** Retries allowed after the first attempt. With a `policy`, default 0. */
  maxRetries?: number;
  /** Backoff when the policy retries without naming a delay (and no `Retry-After` was given). */
  backoff?: ModelRetryBackoffSettings;
  /** Decides each retry; see `retryPolicies`. Runtime only: never serialized, never sent. */
  policy?: RetryPolicy;
}

export interface ModelRetryBackoffSettings {
  /** Delay before the first retry (default 250 ms with a policy). */
  initialDelayMs?: number;
  /** Longest delay (default 2 s with a policy). */
  maxDelayMs?: number;
  /** Growth per retry (default 2). */
  multiplier?: number;
  /** Spread delays by ±12.5% (default true). */
  jitter?: boolean;
}

/** `true` / `false`, or a decision with a delay, a reason and consent to replay unsafe work. */
export type RetryDecision =
  | boolean
  | {
      retry: boolean;
      /** Wait this long before the next attempt (else `Retry-After`, else the backoff). */
      delayMs?: number;
      reason?: string;
      /**
       * Retry even though the provider may already have done the work (a timed-out or stateful
       * request). A streamed request that already produced events is never retried.
       */
      approveUnsafeReplay?: boolean;
    };

/** What a policy knows about the failure, read from the error and the provider's advice. */
export interface ModelRetryNormalizedError {
  statusCode?: number;
  /** From `retry-after-ms` / `retry-after` headers or the provider's advice. */
  retryAfterMs?: number;
  errorCode?: string;
  /** A transport failure (connection refused or reset, DNS, fetch failed, ...). */
  isNetworkError: boolean;
  /** The request was cancelled: never retried. */
  isAbort: boolean;
}

/** A provider's view of a failure (`Model.getRetryAdvice`). */
export interface ModelRetryAdvice {
  suggested?: boolean;
  retryAfterMs?: number;
  reason?: string;
  /** Whether sending the request again could repeat work; omitted when unknown. */
  replaySafety?: 'unsafe' | 'safe';
  /** Whether the response had started when the failure happened. */
  responseStarted?: boolean;
  /** Facts that override what the runner reads from the error. */
  normalized?: Partial<ModelRetryNormalizedError>;
}

export interface RetryPolicyContext {
  error: unknown;
  /** 1-based number of the failed attempt. */
  attempt: number;
  maxRetries: number;
  stream: boolean;
  providerAdvice?: ModelRetryAdvice;
  normalized: ModelRetryNormalizedError;
  readonly previousResponseId?: string;
  readonly conversationId?: string;
  /** The provider's replay classification. */
  readonly replaySafety?: 'safe' | 'unsafe' | 'unknown';
  readonly responseStarted?: boolean;
  /** The request continued a server-kept conversation (`previousResponseId` / `conversationId`). */
  readonly statefulRequest?: boolean;
}

export type RetryPolicy = (context: RetryPolicyContext) => RetryDecision | Promise<RetryDecision>;
