/**
 * The README commands' first run is quiet: each install and build step says one line when it starts
 * and one when it is done, and its own output (native-module compilers, package lists) is shown only
 * when it fails — then in full, with the step's exit code. scripts/run.mjs runs every setup step
 * through scripts/internal/quietly.mjs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const quietlyModule = join(root, 'scripts', 'internal', 'quietly.mjs');

/** Runs `quietly(what, node, ['-e', step])` in a child process, as run.mjs does. */
function runStep(what: string, step: string) {
  const program = `import { quietly } from ${JSON.stringify(quietlyModule)};
quietly(${JSON.stringify(what)}, process.execPath, ['-e', ${JSON.stringify(step)}], { cwd: process.cwd(), env: process.env });
console.log('after the step');`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', program], { cwd: root, encoding: 'utf8' });
}

const NOISY = 'for (let i = 0; i < 100; i++) { console.log(`cc -O2 module-${i}.c`); console.error(`warning: unused variable ${i}`); }';

describe('the first run is quiet', () => {
  it('a step that succeeds prints two lines, none of its own output, and the program goes on', () => {
    const result = runStep('installing dependencies', NOISY);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('after the step\n');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('[baton] installing dependencies ...');
    expect(lines[1]).toMatch(/^\[baton\] installing dependencies: done in \d+\.\d s$/);
  });

  it('a step that fails shows all of its output, says it failed, and ends with its exit code', () => {
    const result = runStep('building the demo', `${NOISY}; process.exit(3)`);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('cc -O2 module-0.c');
    expect(result.stderr).toContain('cc -O2 module-99.c');
    expect(result.stderr).toContain('warning: unused variable 99');
    expect(result.stderr.trim().split('\n').at(-1)).toBe('[baton] building the demo failed (exit 3)');
  });

  it('a step whose command cannot start says why', () => {
    const program = `import { quietly } from ${JSON.stringify(quietlyModule)};
quietly('fetching pnpm', '/nonexistent/npm', [], { cwd: process.cwd(), env: process.env });`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', program], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/\[baton\] fetching pnpm failed: spawnSync \/nonexistent\/npm ENOENT/);
  });

  it('run.mjs takes every install and build step through quietly, and refuses an unknown task before installing anything', () => {
    const script = readFileSync(join(root, 'scripts', 'run.mjs'), 'utf8');
    // Every spawn of npm or of pnpm's install / turbo goes through quietly (only the task itself inherits the terminal).
    expect(script).not.toMatch(/pnpm\(\s*'(install|turbo)'/);
    expect(script).not.toMatch(/spawnSync\(\s*'npm'/);
    const result = spawnSync(process.execPath, [join(root, 'scripts', 'run.mjs'), 'deploy'], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('usage: node scripts/run.mjs demo|chat|test|bench|docs (not "deploy")\n');
  });
});
