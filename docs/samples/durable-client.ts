import { DurableRunError, DurableRunsClient } from '@baton/dbos';

// Any process (an approval UI, a CLI) needs only the database, not the agents.
const client = await DurableRunsClient.create({ databaseUrl: process.env.DATABASE_URL ?? 'postgres://localhost/support' });

const status = await client.status('order-1234');
if (status.state === 'paused') {
  for (const call of status.pending) {
    try {
      await client.approve(status.runId, call.callId, { decidedBy: 'cli', reason: 'checked the invoice' });
    } catch (error) {
      if (error instanceof DurableRunError && error.reason === 'already_decided') console.log('someone else decided first');
      else throw error;
    }
  }
}

// Follow what the run does, across resumes, from any process.
for await (const { seq, event } of client.events('order-1234', { follow: true })) {
  console.log(seq, event);
  if (seq > 100) break;
}
await client.close();
