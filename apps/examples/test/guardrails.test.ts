import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mathHomeworkExample } from '../src/guardrails/mathHomework.js';
import { mathHomeworkFromAgentExample } from '../src/guardrails/mathHomeworkFromAgent.js';
import { phoneNumberExample } from '../src/guardrails/phoneNumber.js';
import { readyMadeToolGuardrailsExample } from '../src/guardrails/readyMadeToolGuardrails.js';
import { toolGuardrailsExample } from '../src/guardrails/toolGuardrails.js';

function collector() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line) };
}

describe('guardrail examples', () => {
  it('math homework: the checker agent trips the blocking guardrail; the support model is never called for it', async () => {
    const { lines, log } = collector();
    const outcome = await mathHomeworkExample(log);
    expect(outcome).toEqual({ tripped: true, supportModelCalls: 1, answer: 'Your order ships tomorrow.' });
    expect(lines[0]).toBe('Math homework guardrail tripped');
    expect(lines).toContain('  support model calls so far: 0');
  });

  it('math homework with guardrailFromAgent: the parallel checker trips and aborts the support model request', async () => {
    const { lines, log } = collector();
    const outcome = await mathHomeworkFromAgentExample(log);
    expect(outcome.tripped).toBe(true);
    expect(outcome.aborted).toBe(true);
    expect(outcome.elapsedMs).toBeLessThan(250);
    expect(lines[0]).toBe('Math homework guardrail tripped (parallel checker agent)');
  });

  it('phone number: the output guardrail trips on a phone number and lets a clean answer through', async () => {
    const { lines, log } = collector();
    expect(await phoneNumberExample(log)).toEqual({ tripped: true, response: 'See our help page for details.' });
    expect(lines).toEqual([
      'Phone number output guardrail tripped',
      '  found: {"phone":1}',
      'Answer without a phone number passed: See our help page for details.',
    ]);
  });

  it('block_secrets / redact_output: the secret call is skipped, the leaky output replaced, the clean call untouched', async () => {
    const { log } = collector();
    const outcome = await toolGuardrailsExample(log);
    expect(outcome.outputs).toEqual({
      secret_in: 'Remove secrets before calling this tool.',
      secret_out: 'Output contained sensitive data.',
      clean: 'length:14',
    });
    expect(outcome.invoked).toEqual(['show config', 'refund request']);
    expect(outcome.finalOutput).toBe('Classified the clean text.');
  });

  it('ready-made blockSecrets() / redactOutput(): the token call is blocked, the customer record masked', async () => {
    const { log } = collector();
    const outcome = await readyMadeToolGuardrailsExample(log);
    expect(outcome.seenByModel).toEqual({
      with_token: 'Remove secrets before calling this tool.',
      routine: '{"name":"Jane","email":"[REDACTED:email]","phone":"[REDACTED:phone]","tier":"gold"}',
    });
  });

  it('`pnpm guardrails` runs every example and prints what happens', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..');
    const stdout = execFileSync(join(root, 'node_modules', '.bin', 'tsx'), ['src/guardrails/main.ts'], { cwd: root, encoding: 'utf8' });
    for (const line of [
      'Math homework guardrail tripped',
      'Math homework guardrail tripped (parallel checker agent)',
      'Phone number output guardrail tripped',
      'block_secrets: Remove secrets before calling this tool.',
      'redact_output: Output contained sensitive data.',
      'redactOutput():  {"name":"Jane","email":"[REDACTED:email]","phone":"[REDACTED:phone]","tier":"gold"}',
    ]) {
      expect(stdout).toContain(line);
    }
    expect(stdout).not.toContain('unexpected');
  });
});
