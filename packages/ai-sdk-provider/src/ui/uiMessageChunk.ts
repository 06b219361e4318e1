/**
 * The chunks of the AI SDK's UI message stream protocol (`UIMessageChunk` in `ai`) this adapter
 * writes: what `useChat` (`@ai-sdk/react` and the other UI packages) reads from a chat route.
 * Declared here so the adapter needs no `ai` dependency; the shapes are the protocol's.
 */
export type AiSdkUiMessageChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' }
  | { type: 'error'; errorText: string }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic?: boolean }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic?: boolean }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic?: boolean }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic?: boolean }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };

/** Progress of a streaming tool or an agent used as a tool, sent as the `data-tool-progress` part with the call's id (each chunk replaces the last in the UI). */
export interface AiSdkToolProgress {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly status: 'running' | 'done' | 'failed' | 'interrupted';
  /** The nested agent's text so far. */
  readonly text: string;
  /** The tool's `notify` payloads so far, in order (with their tag when they had one). */
  readonly notes: ReadonlyArray<{ readonly data: unknown; readonly tag?: string }>;
}
