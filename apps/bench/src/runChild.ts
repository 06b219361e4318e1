import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildReport, ScenarioId, SdkName, WorkSizes } from './protocol.js';

const childScript = fileURLToPath(new URL('./child.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/**
 * Runs one SDK's scenarios in a fresh Node process (with `--expose-gc` for the heap figures) and
 * resolves with its report. The child's stderr passes through; its stdout carries the report.
 */
export function runChild(sdk: SdkName, scenarios: readonly ScenarioId[], sizes: WorkSizes): Promise<ChildReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1' };
  // The models are local; no key means nothing could authenticate to a remote API by accident.
  delete env.OPENAI_API_KEY;
  const args = ['--expose-gc', '--import', tsxLoader, childScript, sdk, scenarios.join(','), JSON.stringify(sizes)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`${sdk} child exited with ${signal ?? code}`));
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as ChildReport);
      } catch {
        reject(new Error(`${sdk} child printed no report:\n${stdout}`));
      }
    });
  });
}
