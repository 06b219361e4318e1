/**
 * The parts of `@openai/codex-sdk` this package's API names, described here instead of imported.
 *
 * Why: the SDK's declarations import `@modelcontextprotocol/sdk`, which it does not install, so a
 * program type-checked with `skipLibCheck: false` fails on them as soon as anything imports the
 * SDK's types. Describing them here keeps `@baton/codex` clean to type-check; a real `Codex` client,
 * its options and its events fit these types (test/sdkTypes.test.ts checks it against the SDK
 * installed as a dev dependency, both ways where the SDK's values flow to the user).
 */

/** `new Codex(options)`: where the CLI is, the API's address and key, CLI configuration and environment. */
export interface CodexOptions {
  codexPathOverride?: string;
  baseUrl?: string;
  apiKey?: string;
  /** `--config key=value` overrides, as a nested object. */
  config?: CodexConfigObject;
  configOverrides?: string[];
  /** The CLI's whole environment (the process's is not inherited when set). */
  env?: Record<string, string>;
}

export type CodexConfigValue = string | number | boolean | CodexConfigValue[] | CodexConfigObject;
export interface CodexConfigObject {
  [key: string]: CodexConfigValue;
}

export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

/** Options of a thread (the SDK's `ThreadOptions`). Enumerations newer SDKs extend are open strings. */
export interface ThreadOptions {
  model?: string;
  threadSource?: string;
  sandboxMode?: SandboxMode;
  workingDirectory?: string;
  skipGitRepoCheck?: boolean;
  modelReasoningEffort?: string;
  networkAccessEnabled?: boolean;
  webSearchMode?: string;
  webSearchEnabled?: boolean;
  approvalPolicy?: string;
  additionalDirectories?: string[];
}

/** Options of one turn (the SDK's `TurnOptions`). */
export interface TurnOptions {
  outputSchema?: unknown;
  signal?: AbortSignal;
  cyberAccessProgram?: string;
}

export type CodexUserInput = { type: 'text'; text: string } | { type: 'local_image'; path: string };

/** A Codex thread: the tool only streams turns on it. */
export interface CodexThread {
  readonly id: string | null;
  runStreamed(input: string | CodexUserInput[], turnOptions?: TurnOptions): Promise<{ events: AsyncGenerator<ThreadEvent> }>;
}

/** A Codex client (`new Codex(...)` from `@openai/codex-sdk`, or anything with its two thread methods). */
export interface CodexClient {
  startThread(options?: ThreadOptions): CodexThread;
  resumeThread(id: string, options?: ThreadOptions): CodexThread;
}

/** A turn's token usage as Codex reports it. */
export interface CodexUsage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  /** Reported by newer SDKs. */
  cache_write_input_tokens?: number;
  reasoning_output_tokens?: number;
}

export type ThreadItem =
  | { id: string; type: 'agent_message'; text: string }
  | { id: string; type: 'reasoning'; text: string }
  | { id: string; type: 'command_execution'; command: string; aggregated_output: string; exit_code?: number; status: 'in_progress' | 'completed' | 'failed' }
  | { id: string; type: 'file_change'; changes: Array<{ path: string; kind: 'add' | 'delete' | 'update' }>; status: 'completed' | 'failed' }
  | {
      id: string;
      type: 'mcp_tool_call';
      server: string;
      tool: string;
      arguments: unknown;
      /** `content` holds MCP content blocks (text, image, audio, resource links…). */
      result?: { content: Array<{ type: string; [field: string]: unknown }>; _meta?: unknown; structured_content: unknown };
      error?: { message: string };
      status: 'in_progress' | 'completed' | 'failed';
    }
  | { id: string; type: 'web_search'; query: string }
  | { id: string; type: 'todo_list'; items: Array<{ text: string; completed: boolean }> }
  | { id: string; type: 'error'; message: string };

/** One event of a streamed Codex turn. */
export type ThreadEvent =
  | { type: 'thread.started'; thread_id: string }
  | { type: 'turn.started' }
  | { type: 'turn.completed'; usage: CodexUsage }
  | { type: 'turn.failed'; error: { message: string } }
  | { type: 'item.started'; item: ThreadItem }
  | { type: 'item.updated'; item: ThreadItem }
  | { type: 'item.completed'; item: ThreadItem }
  | { type: 'error'; message: string };

/** What `loadCodexSdk` needs of the SDK module: its client class. */
export interface CodexSdkModule {
  Codex: new (options?: CodexOptions) => CodexClient;
}
