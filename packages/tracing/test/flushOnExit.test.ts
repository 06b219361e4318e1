import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const dist = pathToFileURL(join(here, '..', 'dist', 'index.js')).href;
const core = pathToFileURL(join(here, '..', 'node_modules', '@baton', 'core', 'dist', 'index.js')).href;
const testing = pathToFileURL(join(here, '..', 'node_modules', '@baton', 'testing', 'dist', 'index.js')).href;

/**
 * A process that runs an agent with the OpenAI exporter (5 s batching) and then simply ends: what
 * it traced is posted before it exits, without the program calling flush or shutdown.
 */
describe('export before the process exits', () => {
  it('a program that ends on its own still delivers its traces', async () => {
    const bodies: { data: { object: string }[] }[] = [];
    const server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        bodies.push(JSON.parse(text));
        response.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces/ingest`;
    const dir = mkdtempSync(join(here, '.exit-'));
    try {
      const script = join(dir, 'program.mjs');
      writeFileSync(
        script,
        `import { BatchTraceProcessor, OpenAITracingExporter, setTraceProcessors } from ${JSON.stringify(dist)};
import { Agent, Runner } from ${JSON.stringify(core)};
import { ScriptedModel, assistantMessage } from ${JSON.stringify(testing)};
setTraceProcessors([new BatchTraceProcessor(new OpenAITracingExporter({ apiKey: 'sk-exit', endpoint: ${JSON.stringify(endpoint)} }))]);
const result = await new Runner().run(new Agent({ name: 'Quick', model: new ScriptedModel([[assistantMessage('bye')]]) }), 'hi');
console.log(result.finalOutput);
`,
      );
      const started = Date.now();
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [script], { timeout: 20_000 }, (error, out) => (error ? reject(error) : resolve(out))),
      );
      expect(stdout.trim()).toBe('bye');
      // Well before the 5 s batch timer: the flush happened at exit, not on schedule.
      expect(Date.now() - started).toBeLessThan(4_500);
      const items = bodies.flatMap((body) => body.data);
      expect(items.filter((item) => item.object === 'trace')).toHaveLength(1);
      expect(items.filter((item) => item.object === 'trace.span').length).toBeGreaterThanOrEqual(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
