import { Agent, RunState, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

// Every process builds the same agent graph.
function supportAgent(model: ScriptedModel) {
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string() }),
    needsApproval: true,
    execute: ({ orderId }) => `refunded ${orderId}`,
  });
  return new Agent({ name: 'Support', model, tools: [refund] });
}

// Process 1: run until approval is needed, then store the paused run as a string.
const paused = await run(supportAgent(new ScriptedModel([[functionCall('refund', { orderId: 'A-1' })]])), 'Refund A-1');
const stored: string = paused.state.toString();

// Process 2, later: rebuild the graph, read the string, decide, resume.
const agent = supportAgent(new ScriptedModel([[assistantMessage('Refunded A-1.')]]));
const state = await RunState.fromString(agent, stored);
for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'ops@example.com' });
const result = await run(agent, state);
console.log(result.finalOutput); // Refunded A-1.
