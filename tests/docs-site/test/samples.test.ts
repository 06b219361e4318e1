import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The docs' samples are type-checked by `@baton/docs`'s `typecheck`. Those that run offline (a
// scripted model or the local fake OpenAI server) also run here, and what they print must match the
// `// expected` comments the pages show. (Samples needing a network, an API key, PostgreSQL or an
// MCP server are only type-checked.)
const samples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'samples');
const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'cli.mjs');
const run = promisify(execFile);

const OFFLINE = [
  'quickstart', 'agents-structured-output', 'agents-context', 'agents-as-tool', 'agents-session',
  'guardrails-input', 'guardrails-output', 'guardrails-tools', 'handoffs-basic', 'handoffs-typed',
  'streaming-tool', 'streaming-nested-agent', 'hitl-approve', 'hitl-serialize', 'hitl-store',
  'providers-openai', 'providers-aisdk', 'tracing-processor', 'migration-testing',
];

/** `console.log(...); // text` → the texts, in order. */
function expectedLines(source: string): string[] {
  return [...source.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm)].map((match) => match[1]!.trim());
}

describe('offline docs samples run and print what their comments say', () => {
  it.each(OFFLINE)('%s', async (name) => {
    const file = join(samples, `${name}.ts`);
    const { stdout } = await run(process.execPath, [tsx, file], { cwd: join(samples, '..'), timeout: 60_000, env: { ...process.env, OPENAI_API_KEY: '' } });
    let rest = stdout;
    for (const expected of expectedLines(readFileSync(file, 'utf8'))) {
      // A comment may abbreviate ("4: two user messages, ..."): its first words must be printed, in order.
      const head = expected.split(/[:,(]| — | \.\.\./)[0]!.trim();
      const at = rest.indexOf(head);
      expect(at, `${name}: expected "${head}" in the output after what was already matched:\n${stdout}`).toBeGreaterThanOrEqual(0);
      rest = rest.slice(at + head.length);
    }
  }, 60_000);
});
