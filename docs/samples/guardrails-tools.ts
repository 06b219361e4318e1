import { Agent, run, tool } from '@baton/core';
import { ToolGuardrailFunctionOutputFactory, blockSecrets, defineToolInputGuardrail, redactOutput } from '@baton/guardrails';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

// Your own tool input guardrail: reject the call, the model is told why.
const smallRefundsOnly = defineToolInputGuardrail({
  name: 'small_refunds_only',
  run: ({ toolCall }) => {
    const { cents } = JSON.parse(toolCall.arguments) as { cents: number };
    return cents > 10_000 ? ToolGuardrailFunctionOutputFactory.rejectContent('Refunds over $100 need a manager.') : ToolGuardrailFunctionOutputFactory.allow();
  },
});

const refund = tool({
  name: 'refund',
  description: 'Refund an amount to the customer',
  parameters: z.object({ cents: z.number(), note: z.string() }),
  inputGuardrails: [smallRefundsOnly, blockSecrets()], // ready-made: block calls carrying secrets
  outputGuardrails: [redactOutput()], // ready-made: mask secrets and personal data in the output
  execute: ({ cents }) => `refunded ${cents} cents, receipt sent to jane@example.com`,
});

const model = new ScriptedModel([
  [functionCall('refund', { cents: 50_000, note: 'broken' }), functionCall('refund', { cents: 1_500, note: 'late' })],
  [assistantMessage('One refund done, the other needs a manager.')],
]);
const result = await run(new Agent({ name: 'Refunds', model, tools: [refund] }), 'Refund both orders');
const outputs = result.newItems.flatMap((item) => (item.type === 'tool_call_output_item' ? [item.output] : []));
console.log(outputs[0]); // Refunds over $100 need a manager.
console.log(outputs[1]); // refunded 1500 cents, receipt sent to [REDACTED:email]
