import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptProcess } from '@baton/testing';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs a TypeScript entry of this app (`src/<name>.ts`) in a new Node process through tsx, handing
 * each line it prints (and its pid) to `onLine` as it comes. Resolves with its exit code and pid.
 */
export async function runChild(name: string, env: Record<string, string | undefined>, onLine: (line: string, pid: number | undefined) => void): Promise<{ code: number | null; pid: number | undefined }> {
  let pid: number | undefined;
  const errors: string[] = [];
  const child = startScriptProcess({
    script: join(appDir, 'src', `${name}.ts`),
    cwd: appDir,
    env,
    onLine: (line, stream) => (stream === 'stdout' ? onLine(line, pid) : errors.push(line)),
  });
  pid = child.pid;
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`${name} (pid ${pid}) exited with ${code}:\n${errors.join('\n')}`);
  return { code, pid };
}
