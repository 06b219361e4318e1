import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';

// A contract that cannot fail proves nothing: run it on models that each break one promise
// (test/fixtures/brokenModels.contract.ts) and check it fails exactly the cases they break.
describe('the model contract kit', () => {
  it('fails a model that buffers its stream or swallows errors, on the cases they break', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'contract-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const out = join(folder, 'report.json');
    const vitest = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
    await promisify(execFile)(process.execPath, [vitest, 'run', '--config', 'test/fixtures/vitest.contract-fixtures.config.ts', '--reporter=json', `--outputFile=${out}`], {
      cwd: join(import.meta.dirname, '..'),
    }).catch(() => undefined); // failing is the point; the report says how
    const report = JSON.parse(await readFile(out, 'utf8')) as { testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }> };
    const failed = report.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === 'failed').map((test) => test.fullName)).sort();
    expect(failed).toEqual(
      [
        'model contract: buffering abort mid-stream (streamed)',
        'model contract: swallowing usage (plain)',
        'model contract: swallowing errors carry the status and whether to retry (plain)',
        'model contract: swallowing errors carry the status and whether to retry (streamed)',
        'model contract: swallowing a stream that ends before its final event (streamed)',
        'model contract: swallowing a stream whose connection drops (streamed)',
        'model contract: swallowing abort before the answer (plain)',
        'model contract: swallowing abort before the answer (streamed)',
        'model contract: swallowing abort mid-stream (streamed)',
      ].sort(),
    );
  }, 60_000);
});
