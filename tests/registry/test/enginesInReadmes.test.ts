/**
 * The READMEs say what the `engines` fields say (no registry): a package that needs a newer Node
 * than the rest says so in its own README, and the root README names it with that version. (That
 * each `engines.node` asks for what its dependencies need is checked on the installed release, in
 * dependencyRanges.ts.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishable, root } from './registrySession.js';

/** The Node major an `engines.node` range starts at (`>=22` → 22), or undefined. */
function major(range: string | undefined): number | undefined {
  const match = /(\d+)/.exec(range ?? '');
  return match ? Number(match[1]) : undefined;
}

const floors = publishable.map(({ dir, manifest }) => ({ dir, name: manifest.name, major: major(manifest.engines?.node) }));
const lowest = Math.min(...floors.flatMap(({ major: value }) => (value === undefined ? [] : [value])));
const newer = floors.filter(({ major: value }) => value !== undefined && value > lowest);
const rootReadme = readFileSync(join(root, 'README.md'), 'utf8');

describe('the READMEs say which Node each package needs', () => {
  it('every package declares engines.node', () => {
    expect(floors.filter(({ major: value }) => value === undefined).map(({ name }) => name)).toEqual([]);
  });

  it(`the root README says Node.js ${lowest}`, () => {
    expect(rootReadme).toMatch(new RegExp(`Node(?:\\.js)? ${lowest}\\b`));
  });

  it.each(newer.map(({ dir, name, major: value }) => [name, value!, dir] as const))('%s needs Node %s: its README and the root README say so', (name, value, dir) => {
    const readme = join(root, dir, 'README.md');
    expect(existsSync(readme), `${dir}/README.md`).toBe(true);
    expect(readFileSync(readme, 'utf8'), `${dir}/README.md names Node ${value}`).toMatch(new RegExp(`Node(?:\\.js)? ${value}\\b`));
    // In the root README, the package is named in the paragraph that names the version.
    const paragraph = rootReadme.split(/\n\s*\n/).find((text) => new RegExp(`Node(?:\\.js)? ${value}\\b`).test(text) && text.includes(`\`${name}\``));
    expect(paragraph, `the root README names ${name} beside Node.js ${value}`).toBeDefined();
  });
});
