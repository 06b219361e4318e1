import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalRecords, inspectRunState, resumePausedRun } from '@baton/hitl-state';
import { fakeText, fakeToolCalls } from '@baton/testing';
import type { Backend } from '../backend.js';
import { openApprovalStore } from '../approvalStore.js';
import { runChild } from '../childProcess.js';
import { say, stepHeader, type Log } from '../log.js';
import { refundSpecialist } from '../specialist.js';

export interface ApprovalFacts {
  readonly pausedOn: string[];
  readonly childPid: number | undefined;
  readonly childLines: string[];
  readonly storedStatus: string | undefined;
  readonly decidedBy: string | undefined;
  /** Refunds actually paid (lines in the ledger file). */
  readonly refundsPaid: number;
  /** What this process got when it tried to resume the same run afterwards. */
  readonly parentResume: string;
  readonly finalOutput: string | undefined;
}

/**
 * Step 4: a refund needs approval. This process runs until the run pauses, stores it in SQLite and
 * stops caring; a second process approves and resumes it from the file. Nobody can resume it twice.
 */
export async function approvalStep(backend: Backend, log: Log): Promise<ApprovalFacts> {
  stepHeader(log, 4, 'A paused run survives the process and resumes exactly once', 'the run pauses for approval and is stored in a SQLite file; another process (started here) approves and resumes it; a second resume — there or here — is refused, and the refund is paid once.');
  backend.script(
    'openai',
    fakeToolCalls([{ name: 'issue_refund', arguments: { orderId: 'A-17', amountEur: 42 }, callId: 'call_refund' }]),
    // Answered to the second process, after the approved refund ran there.
    fakeText('Done: EUR 42 for order A-17 is on its way back to your card.'),
  );
  const dir = mkdtempSync(join(tmpdir(), 'baton-demo-'));
  const dbFile = join(dir, 'paused-runs.sqlite');
  const ledgerFile = join(dir, 'refunds.log');
  const runId = 'refund-A-17';
  const { store, close } = await openApprovalStore(dbFile);
  try {
    const agent = refundSpecialist(backend.openaiModel, () => {
      throw new Error('the refund must not run before approval');
    });
    const paused = await backend.runner.run(agent, 'Please refund order A-17 (EUR 42), it arrived broken.');
    await store.save(runId, paused.state);
    const summary = inspectRunState((await store.load(runId))!.state);
    const pausedOn = summary.supported ? summary.pendingApprovals.map((a) => `${a.toolName}(${a.arguments})`) : [];
    say(log, `paused, waiting for approval of ${pausedOn.join(', ')}; stored as "${runId}" in ${dbFile}`);

    const childLines: string[] = [];
    let childPid: number | undefined;
    const { pid } = await runChild(
      'approver',
      { ...backend.childEnv(), BATON_DEMO_DB: dbFile, BATON_DEMO_RUN_ID: runId, BATON_DEMO_LEDGER: ledgerFile, BATON_DEMO_MODEL: backend.openaiModel },
      (line, pid) => {
        childPid = pid;
        childLines.push(line);
        say(log, `│ second process (pid ${childPid ?? '?'}): ${line}`);
      },
    );

    const again = await resumePausedRun(store, runId, agent, { workerId: `demo-${process.pid}`, runner: backend.runner });
    const stored = await store.load(runId);
    const [record] = approvalRecords(stored!.state);
    const refundsPaid = existsSync(ledgerFile) ? readFileSync(ledgerFile, 'utf8').trim().split('\n').filter(Boolean).length : 0;
    say(log, `this process (pid ${process.pid}) tries to resume it too: ${again.status} (refused: the run is ${again.run?.status})`);
    say(log, `stored run: ${stored?.status}; ${record?.toolName} ${record?.status} by ${record?.decidedBy} ("${record?.reason}"); refunds paid: ${refundsPaid}`);
    return {
      pausedOn,
      childPid: pid,
      childLines,
      storedStatus: stored?.status,
      decidedBy: record?.decidedBy,
      refundsPaid,
      parentResume: again.status,
      finalOutput: childLines.find((l) => l.startsWith('resume #1'))?.split(' — ')[1],
    };
  } finally {
    close();
    rmSync(dir, { recursive: true, force: true });
  }
}
