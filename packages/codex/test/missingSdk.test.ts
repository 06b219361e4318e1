import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built package installed in a folder without @openai/codex-sdk (the optional peer left out),
// beside @baton/core, @baton/testing and zod, and a program calling the tool there.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const project = mkdtempSync(join(tmpdir(), 'baton-codex-no-sdk-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function install(): void {
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@baton', 'codex'), { recursive: true });
  cpSync(join(packageDir, 'dist'), join(modules, '@baton', 'codex', 'dist'), { recursive: true });
  cpSync(join(packageDir, 'package.json'), join(modules, '@baton', 'codex', 'package.json'));
  for (const name of ['@baton/core', '@baton/testing', 'zod']) {
    const target = realpathSync(join(packageDir, 'node_modules', name));
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name), 'dir');
  }
}

const program = `
import { Agent, Runner } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { codexTool } from '@baton/codex';

const agent = new Agent({
  name: 'Engineer',
  tools: [codexTool()],
  model: new ScriptedModel([[functionCall('codex', { inputs: [{ type: 'text', text: 'hi' }], threadId: null })], [assistantMessage('never')]]),
});
try {
  await new Runner().run(agent, 'Go');
  console.log('the run finished');
} catch (error) {
  console.log(error.name + ': ' + error.message);
}
`;

describe('without @openai/codex-sdk installed', () => {
  it('the tool is made; its first call fails the run saying what to install (the model is not asked to retry)', () => {
    install();
    writeFileSync(join(project, 'program.mjs'), program);
    const output = execFileSync(process.execPath, [join(project, 'program.mjs')], { cwd: project, encoding: 'utf8' });
    // The run fails as any tool's error does when its error function rethrows: a ToolCallError naming it.
    expect(output.trim().split('\n').at(-1)).toBe(
      'ToolCallError: Failed to run function tools: UserError: The Codex tool needs the Codex SDK: install it beside @baton/codex with `npm install @openai/codex-sdk`.',
    );
  });
});
