import { spawn, type ChildProcess } from 'node:child_process';

export interface ScriptProcessOptions {
  /** The TypeScript (or JavaScript) file to run. */
  readonly script: string;
  readonly args?: readonly string[];
  /** Where `tsx` resolves from (a folder whose package depends on it). */
  readonly cwd: string;
  /** Merged over this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Each line the process prints, as it comes, with the stream it came from. */
  readonly onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface ScriptProcess {
  readonly pid: number;
  readonly process: ChildProcess;
  readonly alive: boolean;
  /** Resolves when it exited, with its code or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it printed so far (stdout and stderr, line by line). */
  output(): string;
  /** Resolves with the first line (printed before or after the call) that matches; rejects if it exits first or time runs out. */
  waitForLine(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** A crash: SIGKILL, resolved once it is gone. */
  kill(): Promise<void>;
  /** A clean stop: SIGTERM, then SIGKILL after `graceMs` (default 10 s); resolved once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs a script in a new Node process with tsx's loader (`node --import tsx script`) for worker and
 * CLI processes in tests and examples. Not the tsx CLI: it runs the script in a child of its own,
 * which a SIGKILL of the CLI leaves running (a crash test would then kill nothing).
 */
export function startScriptProcess(options: ScriptProcessOptions): ScriptProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', options.script, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  const take = (line: string, stream: 'stdout' | 'stderr') => {
    lines.push(line);
    options.onLine?.(line, stream);
    for (const listener of listeners) listener(line);
  };
  for (const [name, stream] of [['stdout', child.stdout], ['stderr', child.stderr]] as const) {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) take(line, name);
    });
    // A last line without a newline still counts.
    stream.on('end', () => rest !== '' && take(rest, name));
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const matches = (match: string | RegExp, line: string) => (typeof match === 'string' ? line.includes(match) : match.test(line));
  return {
    pid: child.pid!,
    process: child,
    get alive() {
      return !gone();
    },
    exited,
    output: () => lines.join('\n'),
    waitForLine(match, timeoutMs = 60_000) {
      const seen = lines.find((line) => matches(match, line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const done = () => (clearTimeout(timer), listeners.delete(listener));
        const listener = (line: string) => {
          if (matches(match, line)) (done(), resolve(line));
        };
        const timer = setTimeout(() => (done(), reject(new Error(`${options.script}: no line matching ${String(match)} in ${timeoutMs} ms:\n${lines.join('\n')}`))), timeoutMs);
        listeners.add(listener);
        void exited.then(({ code, signal }) => {
          if (!listeners.has(listener)) return;
          done();
          reject(new Error(`${options.script} exited (${code ?? signal}) before printing a line matching ${String(match)}:\n${lines.join('\n')}`));
        });
      });
    },
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 10_000) {
      if (gone()) return void (await exited);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
