import { Agent, run } from '@baton/core';
import { handoff, promptWithHandoffInstructions, removeAllTools } from '@baton/handoffs';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

const refunds = new Agent({
  name: 'Refunds',
  instructions: promptWithHandoffInstructions('You process refunds.'),
  model: new ScriptedModel([[assistantMessage('Refund for order A-17 started.')]]),
});

const requested: string[] = [];
const toRefunds = handoff(refunds, {
  inputType: z.object({ orderId: z.string(), reason: z.string() }), // the model fills this in
  onHandoff: (_context, input) => void requested.push(`${input.orderId}: ${input.reason}`),
  inputFilter: removeAllTools, // the refunds agent sees the messages, not the tool calls
});

const triage = new Agent({
  name: 'Triage',
  instructions: promptWithHandoffInstructions('Send each customer to the right agent.'),
  model: new ScriptedModel([[functionCall('transfer_to_Refunds', { orderId: 'A-17', reason: 'arrived broken' })]]),
  handoffs: [toRefunds],
});

const result = await run(triage, 'My order A-17 arrived broken');
console.log(requested[0]); // arrived broken
console.log(result.lastAgent?.name); // Refunds
