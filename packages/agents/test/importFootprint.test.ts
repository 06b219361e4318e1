import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Importing the umbrella must not load what only some programs use: the `openai` client (made when
// the first model call needs it) and `ws` (loaded when a Responses websocket first connects). Each
// costs tens of milliseconds and megabytes at start-up for programs that never use it.
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const recordLoads = `
export async function load(url, context, next) {
  process.stderr.write('LOADED ' + url + '\\n');
  return next(url, context);
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(recordLoads)}`)});`;

function modulesLoadedBy(code: string): string[] {
  const args = ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', code];
  const child = spawnSync(process.execPath, args, { cwd: packageDir, encoding: 'utf8', env: { ...process.env, OPENAI_API_KEY: '' } });
  if (child.status !== 0) throw new Error(`the program failed: ${child.stderr}`);
  return child.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
}

/** A third-party package is loaded from its folder under some `node_modules` (pnpm nests them). */
const loadsPackage = (urls: readonly string[], name: string) => urls.some((url) => url.includes(`/node_modules/${name}/`));

describe('what importing @baton/agents loads', () => {
  it('loads neither the openai client nor ws', () => {
    const atImport = modulesLoadedBy(`await import('@baton/agents');`);
    // The recording works: the SDK's own dependencies show up.
    expect(loadsPackage(atImport, 'effect')).toBe(true);
    expect(loadsPackage(atImport, 'ws')).toBe(false);
    expect(loadsPackage(atImport, 'openai')).toBe(false);
  });

  it('loads ws when a websocket session opens its first connection', () => {
    // A refused connection still loads the library: the check is that the lazy path is the one taken.
    const code = `
      const { OpenAIProvider } = await import('@baton/openai-provider');
      const provider = new OpenAIProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', useResponses: true, useResponsesWebSocket: true });
      const model = await provider.getModel('gpt-4.1');
      const failure = await model.getResponse({ input: 'hi', modelSettings: { retry: { maxRetries: 0 } }, tools: [], handoffs: [], outputType: 'text', tracing: false }).catch((error) => error);
      if (!/websocket connection failed/i.test(String(failure?.message))) throw new Error('unexpected: ' + failure);
      await provider.close();`;
    expect(loadsPackage(modulesLoadedBy(code), 'ws')).toBe(true);
  });
});
