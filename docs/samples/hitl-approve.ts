import { Agent, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

const cancelOrder = tool({
  name: 'cancel_order',
  description: 'Cancel an order',
  parameters: z.object({ orderId: z.number() }),
  needsApproval: true, // or a function of (context, input) deciding per call
  execute: ({ orderId }) => `order ${orderId} cancelled`,
});

const model = new ScriptedModel([[functionCall('cancel_order', { orderId: 42 })], [assistantMessage('Done: order 42 is cancelled.')]]);
const agent = new Agent({ name: 'Support', model, tools: [cancelOrder] });

let result = await run(agent, 'Cancel order 42');
for (const item of result.interruptions) {
  console.log(`approve ${item.name}(${item.arguments})?`); // approve cancel_order({"orderId":42})?
  result.state.approve(item, { decidedBy: 'alice@example.com', reason: 'customer asked twice' });
  // or: result.state.reject(item, { message: 'Not allowed', decidedBy: 'alice@example.com' })
}
result = await run(agent, result.state); // resumes without asking the model again
console.log(result.finalOutput); // Done: order 42 is cancelled.
