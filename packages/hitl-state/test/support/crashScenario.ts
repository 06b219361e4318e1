import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, modelResponder } from '@baton/testing';
import type { ModelRequest } from '@baton/types';

/**
 * The agent graph of the crash tests, built the same way by the test and by each worker process.
 * `single`: one approved `pay a`; `pair`: `pay a` and `pay b` approved together; `later`: `pay a`,
 * then the model calls `lookup` in the next turn under a fresh random call id (so a retry that asked
 * the model again would see another id and run `lookup` again).
 */
export type CrashScenario = 'single' | 'pair' | 'later';

/** Called as a tool runs, after its execution was counted (a worker may block there to stay in flight). */
export type OnExecute = (label: string) => Promise<void> | void;

/** Each execution appends `label runId` to `ledger`: a side effect outside the worker, read after it died. */
export function crashAgent(scenario: CrashScenario, ledger: string, onExecute: OnExecute = () => undefined) {
  const counted = (label: string, runId: string | undefined) => {
    appendFileSync(ledger, `${label} ${runId ?? '-'}\n`);
    return onExecute(label);
  };
  const pay = tool({
    name: 'pay',
    description: 'Pay someone (needs approval)',
    parameters: z.object({ target: z.string() }),
    needsApproval: true,
    execute: async ({ target }, _ctx, details) => {
      await counted(`pay:${target}`, details?.runId);
      return `paid ${target}`;
    },
  });
  const lookup = tool({
    name: 'lookup',
    description: 'Look something up',
    parameters: z.object({}),
    execute: async (_input, _ctx, details) => {
      await counted('lookup', details?.runId);
      return 'found';
    },
  });
  // Answers from what the request holds, not from how many calls came before: a replayed model
  // step is not asked again, so the worker cannot know its position in a script.
  const respond = ({ request }: { request: Readonly<ModelRequest> }) => {
    const seen = new Set((Array.isArray(request.input) ? request.input : []).flatMap((i) => (i.type === 'function_call' ? [i.name] : [])));
    if (!seen.has('pay')) {
      const targets = scenario === 'pair' ? ['a', 'b'] : ['a'];
      return targets.map((target) => functionCall('pay', { target }, { callId: target }));
    }
    if (scenario === 'later' && !seen.has('lookup')) return [functionCall('lookup', {}, { callId: `lookup_${globalThis.crypto.randomUUID()}` })];
    return [assistantMessage('done')];
  };
  const model = new ScriptedModel(Array.from({ length: 8 }, () => modelResponder(respond)));
  return { agent: new Agent({ name: 'Banker', instructions: 'Pay', model, tools: [pay, lookup] }), model };
}

/** The executions in a ledger: labels (in order) and the run ids the tools saw. */
export function readLedger(ledger: string): { labels: string[]; runIds: Set<string>; count(label: string): number } {
  const lines = existsSync(ledger) ? readFileSync(ledger, 'utf8').split('\n').filter(Boolean) : [];
  const labels = lines.map((line) => line.split(' ')[0]!);
  return { labels, runIds: new Set(lines.map((line) => line.split(' ')[1]!)), count: (label) => labels.filter((l) => l === label).length };
}
