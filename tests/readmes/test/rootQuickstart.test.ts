import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';

// The root README's quickstart runs as written, against a local server standing in for OpenAI
// (OPENAI_BASE_URL), and the request it sends carries the tool.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '..', '..', '..', 'README.md'), 'utf8');
const quickstart = /## Quickstart\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('root README quickstart', () => {
  it('runs as written on the default OpenAI provider', async () => {
    expect(quickstart, 'README.md has a ## Quickstart with a ```ts block').toBeDefined();
    const server = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: 'get_weather', arguments: { city: 'Lisbon' } }]), fakeText('Lisbon is sunny, 21°C.')] });
    try {
      const dir = mkdtempSync(join(here, '..', '.example-'));
      dirs.push(dir);
      const file = join(dir, 'quickstart.mts');
      writeFileSync(file, quickstart!);
      const { stdout } = await promisify(execFile)(join(here, '..', 'node_modules', '.bin', 'tsx'), [file], {
        cwd: join(here, '..'),
        env: { ...process.env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.baseURL, OPENAI_AGENTS_DISABLE_TRACING: '1' },
      });
      expect(stdout.trim()).toBe('Lisbon is sunny, 21°C.');
      expect(server.requests[0]?.body.tools?.[0]?.name).toBe('get_weather');
      expect(server.requests[1]?.body.input.at(-1)).toMatchObject({ type: 'function_call_output', output: 'Lisbon: sunny, 21°C' });
    } finally {
      await server.close();
    }
  });
});
