import { describe, expect, it } from 'vitest';
import { durableSupportExample } from '../src/example.js';
import { isAlive, runApprovalCli } from '../src/processes.js';

// End to end: a real PostgreSQL, two worker processes (one killed with SIGKILL mid-run), and the
// approval CLI run as child processes. Counts come from tables the workers' tools and model write.
describe('the durable support example', () => {
  it('loses nothing when a worker is killed mid-run, runs each tool call once, and approves a refund from the CLI', async () => {
    const lines: string[] = [];
    const started = Date.now();
    const outcome = await durableSupportExample((line) => lines.push(line));
    const output = lines.join('\n');
    const seconds = (Date.now() - started) / 1000;

    // The run whose worker was killed finished on the other worker, with no event written twice.
    const { crashed } = outcome;
    expect(crashed.status, output).toMatchObject({ state: 'completed', finalOutput: 'Order 1002 is out for delivery (two mugs).' });
    expect(crashed.status.executorId).toBeDefined();
    expect(crashed.status.executorId).not.toBe(crashed.killedExecutor);
    expect(crashed.events).toEqual(['tool_called', 'tool_output', 'message_output_created']);

    // Each tool call's body ran exactly once, across both workers (the crash included).
    const executions = outcome.toolExecutions.map((row) => `${row.runId} ${row.tool} ${row.callId} ${row.executions}`).sort();
    expect(executions, output).toEqual([
      'question-1001 lookup_order call_lookup_order_1001 1',
      'question-1002 lookup_order call_lookup_order_1002 1',
      'refund-1003 lookup_order call_lookup_order_1003 1',
      'refund-1003 refund_order call_refund_order_1003 1',
    ]);
    // Committed model calls were replayed, not made again; only the one in flight at the kill was.
    const calls = Object.fromEntries(outcome.modelCalls.map((row) => [`${row.orderId}/${row.turn}`, row.calls]));
    expect(calls['1002/1']).toBeGreaterThanOrEqual(2);
    expect({ ...calls, '1002/1': 'in flight' }).toEqual({ '1001/0': 1, '1001/1': 1, '1002/0': 1, '1002/1': 'in flight', '1003/0': 1, '1003/1': 1, '1003/2': 1 });

    // The refund paused, the CLI listed it and approved it, the run completed and refunded once.
    expect(outcome.question.state).toBe('completed');
    expect(outcome.refund.paused.state).toBe('paused');
    expect(outcome.cli.pending).toMatchObject({ code: 0, output: expect.stringContaining('call_refund_order_1003  Support wants refund_order({"orderId":"1003","amountUsd":42})') });
    expect(outcome.cli.approve).toMatchObject({ code: 0, output: expect.stringContaining('approved refund_order (call_refund_order_1003) of run refund-1003 by ops@teashop.example') });
    expect(outcome.refund.status).toMatchObject({ state: 'completed', revision: 1, finalOutput: expect.stringContaining('I refunded the duplicate charge of $42.') });
    expect(outcome.refunds).toEqual([expect.objectContaining({ runId: 'refund-1003', callId: 'call_refund_order_1003', orderId: '1003', amountUsd: 42 })]);
    expect(outcome.cli.approveAgain).toMatchObject({ code: 1, output: expect.stringContaining('refused (not_paused)') });

    // Nothing is left running.
    expect(outcome.workerPids).toHaveLength(2);
    for (const pid of outcome.workerPids) expect(isAlive(pid), `worker pid ${pid}`).toBe(false);
    expect(output).toContain('worker processes still alive: none');
    console.log(`durable support example: ${seconds.toFixed(1)} s`);
  });

  it('the approval CLI explains its usage, needs DATABASE_URL, and gives up on an unreachable database', async () => {
    const usage = await runApprovalCli(['approve'], { DATABASE_URL: '' }, () => {});
    expect(usage).toMatchObject({ code: 2, output: expect.stringContaining('usage: approve.ts pending <runId>') });
    const noDatabase = await runApprovalCli(['pending', 'some-run'], { DATABASE_URL: '' }, () => {});
    expect(noDatabase).toMatchObject({ code: 2, output: expect.stringContaining('DATABASE_URL is not set') });
    // Nothing listens on port 1: the client says so at once instead of retrying forever.
    const unreachable = await runApprovalCli(['pending', 'some-run'], { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', APPROVE_TIMEOUT_MS: '2000' }, () => {});
    expect(unreachable).toMatchObject({ code: 1, output: expect.stringContaining('refused (unavailable): DurableRunsClient: cannot reach the database at 127.0.0.1:1/none') });
  });
});
