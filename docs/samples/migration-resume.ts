import { Agent, RunState, inspectRunState, run, tool } from '@baton/agents';
import { z } from 'zod';

// A paused run the reference stored with `state.toString()` (in your database, a queue, a file).
declare function loadStoredState(runId: string): Promise<string>;

const refund = tool({
  name: 'refund',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  execute: ({ orderId }) => `refunded ${orderId}`,
});
const agent = new Agent({ name: 'Support', model: 'gpt-4.1', tools: [refund] });

const stored = await loadStoredState('run-42');
console.log(inspectRunState(stored)); // schema version, pending approvals, without the agent graph
const state = await RunState.fromString(agent, stored); // reads the reference's schema 1.x
for (const item of state.getInterruptions()) state.approve(item);
const result = await run(agent, state);
console.log(result.finalOutput);
