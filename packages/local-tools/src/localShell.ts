import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Shell, ShellAction, ShellOutputResult, ShellResult, ShellRunOptions } from '@baton/types';
import * as Effect from 'effect/Effect';
import * as Option from 'effect/Option';
import { CappedText } from './internal/cappedText.js';
import { leaderExit, outputDrained, spawnGroup, terminateGroup } from './internal/processGroup.js';

/** Environment variables a `LocalShell` passes on from its own process unless told otherwise. */
export const DEFAULT_INHERITED_ENV: readonly string[] = ['PATH', 'HOME', 'LANG', 'TMPDIR'];

export interface LocalShellOptions {
  /** The folder commands run in (default: the process's working directory). */
  cwd?: string;
  /**
   * Names of variables copied from this process's environment when set (default
   * `DEFAULT_INHERITED_ENV`). Nothing else is inherited: API keys and tokens stay out.
   */
  inheritEnv?: readonly string[];
  /** Variables set for every command (they win over inherited ones). */
  env?: Record<string, string>;
  /** A command's time limit when the model sets none, in ms (default 60 s). */
  timeoutMs?: number;
  /** The longest time limit the model may ask for, in ms (default 10 min). */
  maxTimeoutMs?: number;
  /** The most characters of stdout and of stderr kept per command; also the ceiling for the model's own limit (default 100,000). */
  maxOutputLength?: number;
  /** How long processes get to exit after SIGTERM before SIGKILL, in ms (default 2 s). */
  killGraceMs?: number;
  /** The shell that runs each command (default `/bin/sh -c`, `cmd.exe /d /s /c` on Windows). */
  shell?: string;
}

/** A command of a `LocalShell` run stopped because the run was cancelled; its processes were ended. */
export class ShellAbortedError extends Error {
  override readonly name = 'ShellAbortedError';
  constructor(readonly command: string) {
    super(`Shell command aborted (its processes were ended): ${command}`);
  }
}

/**
 * Runs a shell tool's commands on this machine with Node's `child_process`: one after the other,
 * each in its own process group in `cwd`, with a time limit, capped output and an environment
 * built from an allow-list. A command that times out, or a cancelled run, ends the whole group
 * (SIGTERM, then SIGKILL); a command's leftover background processes are ended when it exits.
 * The commands run with this process's user's rights: approvals (`needsApproval`) are the guard.
 */
export class LocalShell implements Shell {
  private readonly cwd: string;
  private readonly env: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxTimeoutMs: number;
  private readonly maxOutputLength: number;
  private readonly killGraceMs: number;
  private readonly shell: string;

  constructor(options: LocalShellOptions = {}) {
    this.cwd = resolve(options.cwd ?? process.cwd());
    this.env = buildEnv(options.inheritEnv ?? DEFAULT_INHERITED_ENV, options.env ?? {});
    this.timeoutMs = positive('timeoutMs', options.timeoutMs ?? 60_000);
    this.maxTimeoutMs = positive('maxTimeoutMs', options.maxTimeoutMs ?? 600_000);
    this.maxOutputLength = positive('maxOutputLength', options.maxOutputLength ?? 100_000);
    this.killGraceMs = Math.max(0, options.killGraceMs ?? 2_000);
    this.shell = options.shell ?? (process.platform === 'win32' ? 'cmd.exe' : '/bin/sh');
  }

  async run(action: ShellAction, options: ShellRunOptions = {}): Promise<ShellResult> {
    const { signal } = options;
    this.checkCwd();
    const timeoutMs = Math.min(action.timeoutMs ?? this.timeoutMs, this.maxTimeoutMs);
    const limit = Math.min(action.maxOutputLength ?? this.maxOutputLength, this.maxOutputLength);
    const output: ShellOutputResult[] = [];
    let truncated = false;
    for (const command of action.commands) {
      if (signal?.aborted) throw new ShellAbortedError(command);
      const stdout = new CappedText(limit);
      const stderr = new CappedText(limit);
      const outcome = await Effect.runPromise(this.runCommand(command, stdout, stderr, timeoutMs), signal ? { signal } : undefined).catch(
        (error: unknown) => {
          throw signal?.aborted ? new ShellAbortedError(command) : error;
        },
      );
      truncated ||= stdout.truncated || stderr.truncated;
      output.push({ stdout: stdout.finish(), stderr: stderr.finish(), outcome });
      // A command that timed out leaves the rest unrun, as a terminal would.
      if (outcome.type === 'timeout') break;
    }
    return { output, ...(truncated || action.maxOutputLength !== undefined ? { maxOutputLength: limit } : {}) };
  }

  private runCommand(command: string, stdout: CappedText, stderr: CappedText, timeoutMs: number): Effect.Effect<ShellOutputResult['outcome'], Error> {
    const start = Effect.sync(() => {
      const child = spawnGroup(command, { shell: this.shell, cwd: this.cwd, env: this.env });
      child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      return child;
    });
    const graceMs = this.killGraceMs;
    const shell = this.shell;
    return Effect.scoped(
      Effect.gen(function* () {
        // Whatever happens (exit, timeout, interruption), nothing of the command's group is left running.
        const child = yield* Effect.acquireRelease(start, (child) =>
          terminateGroup(child, graceMs).pipe(Effect.andThen(outputDrained(child, graceMs + 1_000))),
        );
        const exit = yield* leaderExit(child).pipe(
          Effect.mapError((cause) => new Error(`LocalShell: could not start ${shell} for ${JSON.stringify(command)}: ${cause.message}`, { cause })),
          Effect.timeoutOption(timeoutMs),
        );
        return Option.match(exit, {
          onNone: () => ({ type: 'timeout' as const }),
          onSome: ({ code }) => ({ type: 'exit' as const, exitCode: code }),
        });
      }),
    );
  }

  private checkCwd(): void {
    let isDirectory = false;
    try {
      isDirectory = statSync(this.cwd).isDirectory();
    } catch {
      // reported below
    }
    if (!isDirectory) throw new Error(`LocalShell: the working directory ${this.cwd} does not exist or is not a folder`);
  }
}

function buildEnv(inherit: readonly string[], set: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inherit) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...set };
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`LocalShell: ${name} must be a positive number, got ${value}`);
  return value;
}
