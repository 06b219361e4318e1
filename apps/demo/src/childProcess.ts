import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs a TypeScript entry of this app (`src/<name>.ts`) in a new Node process through tsx, handing
 * each line it prints (and its pid) to `onLine` as it comes. Resolves with its exit code and pid.
 */
export function runChild(name: string, env: Record<string, string | undefined>, onLine: (line: string, pid: number | undefined) => void): Promise<{ code: number | null; pid: number | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(appDir, 'src', `${name}.ts`)], {
    cwd: appDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffered = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      onLine(buffered.slice(0, newline), child.pid);
      buffered = buffered.slice(newline + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (buffered) onLine(buffered, child.pid);
      if (code !== 0) return reject(new Error(`${name} (pid ${child.pid}) exited with ${code}:\n${errors}`));
      resolve({ code, pid: child.pid });
    });
  });
}
