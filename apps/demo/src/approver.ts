/**
 * The second process of step 4 (started by the demo): an approver and worker. It opens the SQLite
 * store, rebuilds the agent, approves the paused refund on the stored state, and resumes the run.
 * It then tries to resume it again, which the store refuses: a paused run is resumed once.
 * Environment: BATON_DEMO_DB, BATON_DEMO_RUN_ID, BATON_DEMO_LEDGER, the model endpoints.
 */
import { appendFileSync } from 'node:fs';
import { Runner } from '@baton/core';
import { resumePausedRun, updatePausedRun } from '@baton/hitl-state';
import { openApprovalStore } from './approvalStore.js';
import { demoProvider, endpointsFromEnv } from './providers.js';
import { refundSpecialist } from './specialist.js';

const { BATON_DEMO_DB: dbFile, BATON_DEMO_RUN_ID: runId, BATON_DEMO_LEDGER: ledgerFile, BATON_DEMO_MODEL: model } = process.env;
if (!dbFile || !runId || !ledgerFile || !model) throw new Error('approver: BATON_DEMO_DB, BATON_DEMO_RUN_ID, BATON_DEMO_LEDGER and BATON_DEMO_MODEL are required');

const me = `approver-${process.pid}`;
const out = (text: string) => process.stdout.write(`${text}\n`);
const agent = refundSpecialist(model, (entry) => appendFileSync(ledgerFile, `${entry}\n`));
const runner = new Runner({ modelProvider: demoProvider(endpointsFromEnv(process.env)), tracingDisabled: true });
const { store, close } = await openApprovalStore(dbFile);
try {
  await updatePausedRun(store, runId, agent, (state) => {
    for (const request of state.getInterruptions()) {
      state.approve(request, { decidedBy: me, reason: 'damage confirmed by photo' });
      out(`approved ${request.name}(${request.arguments}) as ${me}`);
    }
  });
  const first = await resumePausedRun(store, runId, agent, { workerId: me, runner });
  out(`resume #1: ${first.status}${first.status === 'completed' ? ` — "${first.result.finalOutput}"` : ''}`);
  const second = await resumePausedRun(store, runId, agent, { workerId: `${me}-again`, runner });
  out(`resume #2: ${second.status} (refused: the run is ${second.run?.status})`);
} finally {
  close();
}
