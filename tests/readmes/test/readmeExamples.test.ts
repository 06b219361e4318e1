import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Every package README's first complete TypeScript example must run as written, and print what its
// `// comments` say it prints. Fragments are fenced as ```ts sketch (or ```ts no-run when they need a
// key or a service) and skipped; tests/registry checks every block as installed from a registry.
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'README.md')));
const tsx = join(here, '..', 'node_modules', '.bin', 'tsx');

function firstTsExample(readme: string): string | undefined {
  // Only a bare ```ts fence: ```ts sketch and ```ts no-run blocks are not run.
  return /^```ts\n([\s\S]*?)^```$/m.exec(readme)?.[1];
}

/** `console.log(x); // expected` lines: the expected output, in order. */
function expectedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.+)$/gm)].map((m) => m[1]!.trim());
}

describe('package README examples', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each(packages)('%s README example runs', (name) => {
    const readme = readFileSync(join(root, 'packages', name, 'README.md'), 'utf8');
    const code = firstTsExample(readme);
    expect(code, `packages/${name}/README.md has a \`\`\`ts example`).toBeDefined();
    // Written beside this test so the workspace packages resolve as they would for a user.
    const dir = mkdtempSync(join(here, '..', '.example-'));
    dirs.push(dir);
    const file = join(dir, `${name}.mts`);
    writeFileSync(file, code!);
    const stdout = execFileSync(tsx, [file], { cwd: join(here, '..'), encoding: 'utf8' });
    const lines = stdout.split('\n').map((l) => l.trim());
    for (const expected of expectedOutput(code!)) {
      const firstPart = expected.split(',')[0]!.trim();
      expect(lines.some((line) => line.startsWith(firstPart)), `"${expected}" in output of ${name}:\n${stdout}`).toBe(true);
    }
  });
});
