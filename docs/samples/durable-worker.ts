import { Agent, tool } from '@baton/core';
import { DurableWorker } from '@baton/dbos';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { startPostgres } from '@baton/testing/postgres';
import { z } from 'zod';

// Offline: a throwaway PostgreSQL and a scripted model. In production, your database URL and a real model.
const postgres = await startPostgres();
const refund = tool({
  name: 'refund_order',
  description: 'Refund an order',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  execute: ({ orderId }, _context, details) => `refunded ${orderId} (dedupe key ${details?.runId}:${details?.toolCall.callId})`,
});
const model = new ScriptedModel([[functionCall('refund_order', { orderId: '1234' }, { callId: 'call_1' })], [assistantMessage('Refunded order 1234.')]]);
const support = new Agent({ name: 'Support', model, tools: [refund] });

const worker = await DurableWorker.launch({
  databaseUrl: postgres.urlFor('support'), // created when missing
  applicationVersion: 'v1', // runs continue only on workers of the version that started them
  executorId: 'worker-1', // unique per process, the same after a restart
  agents: { support },
});
const runId = await worker.startRun('support', 'Refund order 1234', { runId: 'order-1234' });
const paused = await worker.client.result(runId);
console.log(paused.state, paused.pending.map((call) => call.toolName)); // paused [ 'refund_order' ]

await worker.client.approve(runId, 'call_1', { decidedBy: 'ops@example.com', reason: 'duplicate charge' });
console.log((await worker.client.result(runId)).finalOutput); // Refunded order 1234.
await worker.shutdown();
postgres.stop();
