/**
 * The docs guides (docs/guide/*.md), as users follow them from the registry: each guide top to
 * bottom in one project, every install line of its shell blocks in order (a project shared with any
 * README or guide that installs the same packages), then its complete code blocks — its own fences
 * and the docs samples it includes (`<<< @/samples/name.ts`, as the site shows them) — type-checked
 * as ES modules and as CommonJS (`tsc --strict`, `skipLibCheck: false`) and run both ways, checking
 * what their `// comments` say they print (documents.ts).
 *
 * versions-side-by-side.md is followed by its own suite (versionsSideBySide.ts): it installs two
 * releases under npm aliases.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { describeDocument, followDocument, runDocuments, type FollowedDocument } from './documents.js';
import { parseReadme, type Readme } from './readmeBlocks.js';
import { root, type RegistrySession } from './registrySession.js';

const docs = join(root, 'docs');
const OWN_SUITE = ['versions-side-by-side.md'];

/** The guides with code (a guide of prose only has nothing to follow). */
const guides = new Map<string, Readme>(
  readdirSync(join(docs, 'guide'))
    .filter((name) => name.endsWith('.md') && !OWN_SUITE.includes(name))
    .sort()
    .map((name): [string, Readme] => [`docs/guide/${name}`, parseReadme(readFileSync(join(docs, 'guide', name), 'utf8'), { installs: 'all', include: (path) => readFileSync(join(docs, path.replace(/^@\//, '')), 'utf8') })])
    .filter(([, readme]) => readme.blocks.length > 0),
);

const documents = new Map<string, FollowedDocument>();

/** Starts the installs (or shares a README's), adds the blocks to the session's type-check. Call before `session.seal()`. */
export function prepareGuides(session: RegistrySession): void {
  for (const [file, readme] of guides) documents.set(file, followDocument(session, file, readme));
}

/** Starts the runs (after the type-check). Call after `session.seal()`. */
export function runGuides(session: RegistrySession): void {
  runDocuments(session, documents.values());
}

export function describeGuides(session: RegistrySession): void {
  describe.each([...guides.keys()])('%s, as a user follows it', (file) => {
    describeDocument(session, file, guides.get(file)!, () => documents.get(file)!);
  });
}
