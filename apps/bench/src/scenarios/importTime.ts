import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The modules whose cold import is timed (the core issue's "loads fast" target: Baton at most 0.35× the reference). */
export const IMPORT_SPECIFIERS = ['@baton/agents', '@baton/core', '@openai/agents'] as const;

export interface ImportTimeRow {
  readonly specifier: string;
  /** Median wall time of `await import(specifier)` in a fresh process, in ms. */
  readonly medianMs: number;
  /** Against `@openai/agents`. */
  readonly ratio: number;
}

/**
 * Cold import time: each round imports every module once, each in a fresh Node process (the
 * modules alternate, so machine noise spreads over all of them), timing only the `import()`.
 */
export async function measureImportTime(rounds = 7): Promise<ImportTimeRow[]> {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const samples = new Map<string, number[]>(IMPORT_SPECIFIERS.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (const specifier of IMPORT_SPECIFIERS) {
      const code = `const t0 = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t0));`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], { cwd, env: { ...process.env, OPENAI_API_KEY: '' } });
      samples.get(specifier)!.push(Number(stdout.trim().split('\n').at(-1)));
    }
  }
  const medians = new Map([...samples].map(([s, values]) => [s, median(values)]));
  const reference = medians.get('@openai/agents')!;
  return IMPORT_SPECIFIERS.map((specifier) => ({ specifier, medianMs: medians.get(specifier)!, ratio: medians.get(specifier)! / reference }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatImportTime(rows: readonly ImportTimeRow[]): string {
  return [
    'Cold import (median of fresh processes, alternating; target: Baton at most 0.35× @openai/agents):',
    ...rows.map((row) => `  ${row.specifier.padEnd(16)} ${row.medianMs.toFixed(1).padStart(7)} ms   ${row.ratio.toFixed(2)}×`),
  ].join('\n');
}
