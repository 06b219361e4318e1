import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CrashWorkerJob } from './crashWorker.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');

/**
 * Starts a worker process on `job`, waits until it printed every marker in `killAfter` (it is then
 * halted at the last one), and kills it with SIGKILL: no finalizer, no release, its lease just
 * lapses. Resolves with the markers it printed. Fails if it exits by itself or takes too long.
 */
export function killWorkerAt(job: CrashWorkerJob, killAfter: string[], timeoutMs = 30_000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // One process (`node --import tsx`, not the `tsx` launcher, which would leave its node child
    // running when it is killed).
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'crashWorker.ts')], {
      cwd: packageDir,
      env: { ...process.env, BATON_CRASH_WORKER: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const markers: string[] = [];
    let stderr = '';
    let buffered = '';
    let killed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker timed out; markers: ${markers.join(', ')}; stderr: ${stderr}`));
    }, timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      markers.push(...lines);
      if (!killed && killAfter.every((wanted) => markers.some((m) => m.startsWith(wanted)))) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (killed && signal === 'SIGKILL') resolve(markers);
      else reject(new Error(`worker exited by itself (code ${code}, signal ${signal}); markers: ${markers.join(', ')}; stderr: ${stderr}`));
    });
  });
}
