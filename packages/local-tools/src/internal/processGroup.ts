import { spawn, type ChildProcess } from 'node:child_process';
import * as Effect from 'effect/Effect';

/**
 * A command's processes as one group: the shell is started as the leader of a new process group
 * (POSIX), so the command, its children and theirs can be signalled together and none is left
 * running. On Windows there are no process groups: the tree is ended with `taskkill /T`.
 */

const isWindows = process.platform === 'win32';

export interface GroupSpawnOptions {
  shell: string;
  cwd: string;
  env: Record<string, string>;
}

export function spawnGroup(command: string, options: GroupSpawnOptions): ChildProcess {
  const args = isWindows ? ['/d', '/s', '/c', command] : ['-c', command];
  return spawn(options.shell, args, {
    cwd: options.cwd,
    env: options.env,
    detached: !isWindows,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
    windowsVerbatimArguments: isWindows,
  });
}

/** Sends `signal` to every process of the group; false when none is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  if (child.pid === undefined) return false;
  try {
    if (isWindows) {
      if (signal !== 0) spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      return child.exitCode === null && child.signalCode === null;
    }
    process.kill(-child.pid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone.
    return false;
  }
}

const POLL_MS = 25;

/**
 * Ends the group: SIGTERM, then SIGKILL for whatever is still there after `graceMs` (a process
 * that ignores SIGTERM, a child the command left behind). Safe to call when the group is gone.
 */
export const terminateGroup = (child: ChildProcess, graceMs: number): Effect.Effect<void> =>
  Effect.gen(function* () {
    if (!signalGroup(child, 'SIGTERM')) return;
    for (let waited = 0; waited < graceMs; waited += POLL_MS) {
      yield* Effect.sleep(POLL_MS);
      if (!signalGroup(child, 0)) return;
    }
    signalGroup(child, 'SIGKILL');
  });

export interface LeaderExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Waits for the group's leader (the shell) to exit; fails when it could not be started. */
export const leaderExit = (child: ChildProcess): Effect.Effect<LeaderExit, Error> =>
  Effect.callback<LeaderExit, Error>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resume(Effect.succeed({ code: child.exitCode, signal: child.signalCode }));
      return;
    }
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => resume(Effect.succeed({ code, signal }));
    const onError = (error: Error) => resume(Effect.fail(error));
    child.once('exit', onExit);
    child.once('error', onError);
    return Effect.sync(() => {
      child.off('exit', onExit);
      child.off('error', onError);
    });
  });

/**
 * Waits until the command's output pipes close (every process holding them is gone), at most
 * `maxMs`: a process that left the group (`setsid`) cannot hold the result hostage.
 */
export const outputDrained = (child: ChildProcess, maxMs: number): Effect.Effect<void> =>
  Effect.callback<void>((resume) => {
    const streams = [child.stdout, child.stderr].filter((stream) => stream !== null && !stream.closed);
    let open = streams.length;
    if (open === 0) {
      resume(Effect.void);
      return;
    }
    const onClose = () => {
      open -= 1;
      if (open === 0) resume(Effect.void);
    };
    streams.forEach((stream) => stream!.once('close', onClose));
    return Effect.sync(() => streams.forEach((stream) => stream!.off('close', onClose)));
  }).pipe(
    Effect.timeoutOption(maxMs),
    Effect.andThen(
      Effect.sync(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }),
    ),
  );
