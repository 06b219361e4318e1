import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The programs in types/ are compiled (strict) twice: with 'sdk' mapped to @openai/agents, then to
// @baton/agents. A program that type-checks against the reference must type-check against Baton.
const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(config: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [tsc, '-p', join(here, '..', 'types', config)], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the same programs type-check against both SDKs', () => {
  it.each(['reference', 'baton'])('against %s', (sdk) => {
    const { status, output } = compile(`tsconfig.${sdk}.json`);
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 60_000);

  it('the harness catches a type error (control)', () => {
    const { status, output } = compile('tsconfig.broken.json');
    expect(status).not.toBe(0);
    expect(output).toContain("Property 'toUpperCase' does not exist on type 'number'");
  }, 60_000);
});
