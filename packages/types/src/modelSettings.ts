import type { ModelRetrySettings } from './modelRetry.js';

export type ModelSettingsToolChoice = 'auto' | 'required' | 'none' | (string & {});

/** How hard a reasoning model thinks; which values a model accepts is the vendor's to say. */
export type ModelSettingsReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null;

/** Reasoning settings (sent as Responses `reasoning`; Chat Completions takes the effort only). */
export interface ModelSettingsReasoning {
  effort?: ModelSettingsReasoningEffort;
  summary?: 'auto' | 'concise' | 'detailed' | null;
  /** Which reasoning items are sent back to the model on later turns. */
  context?: 'auto' | 'current_turn' | 'all_turns' | null;
  /** The reasoning execution mode (\`'standard'\`, \`'pro'\`, ...). */
  mode?: 'standard' | 'pro' | (string & {});
}

/** Settings passed to the model on every request. Unknown keys go to providers through `providerData`. */
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
  reasoning?: ModelSettingsReasoning;
  text?: { verbosity?: 'low' | 'medium' | 'high' | null };
  /** Request timeout per attempt, in milliseconds. */
  timeoutMs?: number;
  /** Retries of a failed request; see `ModelRetrySettings`. */
  retry?: ModelRetrySettings;
  /** How long the provider keeps cached prompt content (`prompt_cache_retention`). */
  promptCacheRetention?: 'in-memory' | '24h' | null;
  /** Implicit or explicit prompt caching (`prompt_cache_options`). */
  promptCacheOptions?: { mode?: 'implicit' | 'explicit'; ttl?: '30m' };
  /** Server-side context management (Responses `context_management`), for example `[{ type: 'compaction', compactThreshold }]`. */
  contextManagement?: ModelSettingsContextManagement;
  /** Also return the provider's usage object as it was sent, as `rawUsage` on the model response. */
  preserveRawUsage?: boolean;
  providerData?: Record<string, unknown>;
}

/** One context-management strategy: `compaction` when the rendered prompt passes a token threshold. */
export type ModelSettingsContextManagement = Array<{
  type: 'compaction' | (string & {});
  compactThreshold?: number;
  compact_threshold?: number;
  [key: string]: unknown;
}>;
