// A setup step of the README commands (install, build) that says one line when it starts and one when
// it is done; its own output (native-module compilers, package lists) is shown only when it fails,
// and then the process ends with the step's exit code.
import { spawnSync } from 'node:child_process';

export function quietly(what, command, args, { cwd, env }) {
  const started = Date.now();
  console.error(`[baton] ${what} ...`);
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    console.error(`[baton] ${what} failed${result.error ? `: ${result.error.message}` : ` (exit ${result.status})`}`);
    process.exit(result.status ?? 1);
  }
  console.error(`[baton] ${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
