import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The packages an agent needs in any runtime load without Node's modules: no built file imports a
// `node:` module at load (Node-only helpers reach `node:` lazily, through process.getBuiltinModule).

const packagesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'packages');
const portable = ['types', 'core', 'guardrails', 'handoffs', 'openai-provider'];
const STATIC_NODE_IMPORT = /(?:\bfrom\s*["']node:|\brequire\(\s*["']node:|\bimport\s*["']node:)/;

describe('runs anywhere: no node: module at load time', () => {
  it.each(portable)('@baton/%s', (name) => {
    const dist = join(packagesDir, name, 'dist');
    const files = readdirSync(dist).filter((file) => file.endsWith('.js') || file.endsWith('.cjs'));
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.filter((file) => STATIC_NODE_IMPORT.test(readFileSync(join(dist, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('a clean public surface', () => {
  it('the streamed result’s fiber hookup and the event channel are not in @baton/core’s types; its constructor is the reference’s public one', () => {
    const dist = join(packagesDir, 'core', 'dist');
    const declarations = readdirSync(dist)
      .filter((file) => file.endsWith('.d.ts'))
      .map((file) => readFileSync(join(dist, file), 'utf8'))
      .join('\n');
    expect(declarations).toContain('declare class StreamedRunResult');
    expect(declarations).not.toMatch(/EventChannel/);
    expect(declarations).not.toMatch(/\battach\(/);
    expect(declarations).toMatch(/constructor\(options\?: StreamedRunResultOptions/);
  });
});
