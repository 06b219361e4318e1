/**
 * The same idea with the package's ready-made `blockSecrets()` and `redactOutput()`: real key
 * patterns instead of `includes('sk-')`, and the output is masked rather than withheld.
 */
import { Agent, run, tool } from '@baton/core';
import { blockSecrets, redactOutput } from '@baton/guardrails';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';
import { consoleLog, type Log } from './log.js';

export async function readyMadeToolGuardrailsExample(log: Log = consoleLog) {
  const lookupCustomer = tool({
    name: 'lookup_customer',
    description: 'Looks a customer up by name.',
    parameters: z.object({ name: z.string(), note: z.string() }),
    inputGuardrails: [blockSecrets()],
    outputGuardrails: [redactOutput()],
    execute: ({ name }) => ({ name, email: 'jane@example.com', phone: '+1 650 555 0101', tier: 'gold' }),
  });
  const model = new ScriptedModel([
    [
      functionCall('lookup_customer', { name: 'Jane', note: 'auth with ghp_1234567890abcdefghijklmnopqrstuvwxYZ' }, { callId: 'with_token' }),
      functionCall('lookup_customer', { name: 'Jane', note: 'routine check' }, { callId: 'routine' }),
    ],
    [assistantMessage('Jane is a gold customer.')],
  ]);
  const agent = new Agent({ name: 'Support', model, tools: [lookupCustomer] });
  const result = await run(agent, 'Tell me about Jane.');

  const seenByModel: Record<string, string> = {};
  for (const item of result.newItems) {
    if (item.type === 'tool_call_output_item') seenByModel[item.rawItem.callId] = String(item.output);
  }
  log(`blockSecrets():  ${seenByModel.with_token}`);
  log(`redactOutput():  ${seenByModel.routine}`);
  return { seenByModel, finalOutput: result.finalOutput };
}
