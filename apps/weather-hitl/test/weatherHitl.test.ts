import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectRunState } from '@baton/hitl-state';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsx = join(app, 'node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'weather-hitl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one process of the app; `input` is what the user types. */
function runProcess(command: 'start' | 'resume', file: string, input?: string): string {
  return execFileSync(tsx, ['src/main.ts', command, '--state', file], { cwd: app, encoding: 'utf8', ...(input !== undefined ? { input } : {}) });
}

describe('weather-hitl: pause in one process, resume in another', () => {
  it.each([
    ['approved', 'y\n', 'San Francisco: The weather in San Francisco is sunny'],
    ['rejected', 'n\n', 'San Francisco: Tool execution was not approved.'],
  ])('%s on the terminal', (_label, answer, expected) => {
    const file = join(dir, `${_label}.json`);
    const first = runProcess('start', file);
    expect(first).toContain('Paused for approval (get_weather {"location":"San Francisco"})');
    expect(existsSync(file)).toBe(true);
    // The first process has exited; the state is in the file.
    const summary = inspectRunState(readFileSync(file, 'utf8'));
    expect(summary).toMatchObject({ status: 'interrupted', currentAgent: { name: 'Data agent' }, pendingApprovals: [{ toolName: 'get_weather', callId: 'call_sf' }] });

    const second = runProcess('resume', file, answer);
    expect(second).toContain('Agent Data agent would like to use the tool get_weather with "{"location":"San Francisco"}". Do you approve? (y/n):');
    expect(second).toContain('Oakland: The weather in Oakland is sunny');
    expect(second).toContain(expected);
    expect(existsSync(file)).toBe(false);
  }, 60_000);
});
