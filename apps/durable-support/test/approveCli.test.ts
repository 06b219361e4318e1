import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { z } from 'zod';
import { Agent, tool } from '@baton/core';
import { DurableWorker } from '@baton/dbos';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { startPostgres, type PostgresServer } from '@baton/testing/postgres';
import { runApprovalCli } from '../src/processes.js';

// The approval CLI prints what the model wrote (a pending call's id and arguments): a model that
// writes terminal escape sequences or fake lines must not change what the approver reads.
let postgres: PostgresServer;
let databaseUrl: string;
let worker: DurableWorker;

const HOSTILE_CALL_ID = 'call_1\u001b[2K\u001b[1G';
// Valid JSON (so the call reaches the approval): newlines and carriage returns between tokens, an
// 8-bit CSI and a right-to-left override inside a string; the call id is free text with 7-bit escapes.
const HOSTILE_ARGUMENTS = '{"orderId":"1003",\r"amountUsd":4200,\n"note":"\u009b2K\u009b1Gapproved by ops: amountUsd 1\u202e"}';

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = postgres.urlFor('approve_cli_test');
  const admin = new pg.Client({ connectionString: postgres.connectionString });
  await admin.connect();
  await admin.query('CREATE DATABASE approve_cli_test');
  await admin.end();
  const refund = tool({
    name: 'refund_order',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amountUsd: z.number(), note: z.string() }),
    needsApproval: true,
    execute: () => 'refunded',
  });
  const model = new ScriptedModel([[functionCall('refund_order', HOSTILE_ARGUMENTS, { callId: HOSTILE_CALL_ID })], [assistantMessage('Refunded.')]]);
  worker = await DurableWorker.launch({
    databaseUrl,
    applicationVersion: 'cli-test',
    executorId: 'cli-test-worker',
    agents: { support: new Agent({ name: 'Support', model, tools: [refund] }) },
    queue: { pollingIntervalMs: 100 },
    recoveryIntervalMs: false,
  });
});

afterAll(async () => {
  await worker?.shutdown();
  postgres?.stop();
});

describe('the approval CLI', () => {
  it('prints a pending call with the model’s escape sequences removed and its control characters visible', async () => {
    const runId = await worker.startRun('support', 'Refund order 1003', { runId: 'hostile-1' });
    const paused = await worker.client.result(runId);
    expect(paused.pending[0]).toMatchObject({ callId: HOSTILE_CALL_ID, arguments: HOSTILE_ARGUMENTS });

    const pending = await runApprovalCli(['pending', runId], { DATABASE_URL: databaseUrl }, () => {});
    expect(pending.code).toBe(0);
    expect(pending.output).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
    const lines = pending.output.trimEnd().split('\n');
    // The run's line and one line for the call: the model's newline did not make a line of its own.
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('call_1  Support wants refund_order({"orderId":"1003",\\u{d}"amountUsd":4200,\\u{a}"note":"approved by ops: amountUsd 1\\u{202e}"})');

    const approved = await runApprovalCli(['approve', runId, '--by', 'ops\u001b[8m'], { DATABASE_URL: databaseUrl }, () => {});
    expect(approved.code, approved.output).toBe(0);
    expect(approved.output).not.toMatch(/[\u001b\u0007]/);
    expect(approved.output).toContain('approved refund_order (call_1) of run hostile-1 by ops;');
  });

  it('refuses a malformed run id before touching the database', async () => {
    const refused = await runApprovalCli(['pending', 'hostile-1:resume:1'], { DATABASE_URL: databaseUrl }, () => {});
    expect(refused).toMatchObject({ code: 1, output: expect.stringContaining("refused (invalid_run_id): A durable run id cannot contain ':'") });
  });
});
