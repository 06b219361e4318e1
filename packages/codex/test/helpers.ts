import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Codex } from '@openai/codex-sdk';
import { onTestFinished } from 'vitest';

/** The fake Codex CLI (test/fixtures/fakeCodex.mjs): the real SDK spawns it instead of `codex`. */
export const fakeCodexPath = fileURLToPath(new URL('./fixtures/fakeCodex.mjs', import.meta.url));

export interface FakeCodexInvocation {
  argv: string[];
  input: string;
  outputSchema?: Record<string, unknown>;
  pid: number;
}

/** A real `Codex` client on the fake CLI, and what the CLI was asked, call by call. Call it inside a test: its log folder is removed when the test ends. */
export function fakeCodex(env: Record<string, string> = {}): { codex: Codex; invocations: () => FakeCodexInvocation[] } {
  const folder = mkdtempSync(join(tmpdir(), 'baton-codex-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const log = join(folder, 'calls.jsonl');
  const codex = new Codex({ codexPathOverride: fakeCodexPath, env: { PATH: process.env.PATH ?? '', FAKE_CODEX_LOG: log, ...env } });
  const invocations = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as FakeCodexInvocation)
      : [];
  return { codex, invocations };
}
