import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildReport, ScenarioId, SdkName, WorkSizes } from './protocol.js';

const childScript = fileURLToPath(new URL('./child.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');
/** Inside apps/bench, so the compiled child resolves the SDKs from the bench's node_modules as users' code would. */
const compiledChild = fileURLToPath(new URL('../results/.child/child.mjs', import.meta.url));
let compiling: Promise<void> | undefined;

/**
 * The child compiled to one JavaScript file (the SDKs stay external imports), for scenarios that
 * measure the whole process's memory: the TypeScript loader's own memory is neither SDK's.
 */
function compileChild(): Promise<void> {
  compiling ??= import('esbuild').then(({ build }) =>
    build({ entryPoints: [childScript], outfile: compiledChild, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' }).then(() => undefined),
  );
  return compiling;
}

/**
 * Runs one SDK's scenarios in a fresh Node process (with `--expose-gc` for the heap figures) and
 * resolves with its report. The child's stderr passes through; its stdout carries the report.
 */
export async function runChild(sdk: SdkName, scenarios: readonly ScenarioId[], sizes: WorkSizes, options: { compiled?: boolean } = {}): Promise<ChildReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_AGENTS_DISABLE_TRACING: '1' };
  // The models are local; no key means nothing could authenticate to a remote API by accident.
  delete env.OPENAI_API_KEY;
  if (options.compiled) await compileChild();
  const script = options.compiled ? [compiledChild] : ['--import', tsxLoader, childScript];
  const args = ['--expose-gc', ...script, sdk, scenarios.join(','), JSON.stringify(sizes)];
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
