/**
 * The `Shell` contract: what a shell tool asks the host to run and what comes back. The shapes are
 * the reference SDK's (`ShellAction`, `ShellResult`, `ShellOutputResult`, `Shell`), so a shell
 * written for `@openai/agents` plugs in unchanged. `@baton/local-tools` ships `LocalShell`.
 */

/** One shell tool call: the commands to run in order, with the model's limits (both optional). */
export interface ShellAction {
  commands: string[];
  /** The longest a command may run, in milliseconds. */
  timeoutMs?: number;
  /** The most output (characters) the model wants back per command. */
  maxOutputLength?: number;
}

/** How a command ended: it exited (with its code, `null` when a signal ended it) or it timed out. */
export type ShellCallOutcome = { type: 'timeout' } | { type: 'exit'; exitCode: number | null };

/** The output of one executed command. Extra fields are kept (the reference's schema is loose). */
export interface ShellCallOutputContent {
  stdout: string;
  stderr: string;
  outcome: ShellCallOutcome;
  [key: string]: unknown;
}

/** The output of one executed command (the reference's name for it). */
export type ShellOutputResult = ShellCallOutputContent;

/** What a shell returns for one action. */
export interface ShellResult {
  /** One entry per executed command, in order. */
  output: ShellOutputResult[];
  /** The output limit the shell enforced, when it truncated output itself. */
  maxOutputLength?: number;
  /** Provider-specific data merged into the tool call's output item. */
  providerData?: Record<string, unknown>;
}

/**
 * Options a run passes beside the action. Baton's addition: a shell written for the reference
 * (`run(action)`) still satisfies `Shell`.
 */
export interface ShellRunOptions {
  /** Aborted when the run is cancelled: stop the commands and leave nothing running. */
  signal?: AbortSignal;
}

/** Runs a shell tool's commands on behalf of an agent. */
export interface Shell {
  run(action: ShellAction, options?: ShellRunOptions): Promise<ShellResult>;
}
