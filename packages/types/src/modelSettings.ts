/** Settings passed to the model on every request. Unknown keys go to providers through `providerData`. */
export type ModelSettingsToolChoice = 'auto' | 'required' | 'none' | (string & {});

export interface ModelRetrySettings {
  /** Retries after the first attempt for retryable errors (default decided by the provider or runner). */
  maxRetries?: number;
  /** Backoff between attempts. */
  backoff?: { initialDelayMs?: number; maxDelayMs?: number; multiplier?: number; jitter?: boolean };
}

export interface ModelSettings {
  temperature?: number;
  topP?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  toolChoice?: ModelSettingsToolChoice;
  parallelToolCalls?: boolean;
  truncation?: 'auto' | 'disabled';
  maxTokens?: number;
  store?: boolean;
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high' | 'none' | null; summary?: 'auto' | 'concise' | 'detailed' | null };
  text?: { verbosity?: 'low' | 'medium' | 'high' | null };
  /** Request timeout per attempt, in milliseconds. */
  timeoutMs?: number;
  retry?: ModelRetrySettings;
  providerData?: Record<string, unknown>;
}
