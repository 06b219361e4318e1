/**
 * The approval CLI: a separate process with no agents, only the database (`DurableRunsClient`).
 *
 *   tsx src/approve.ts pending <runId>
 *   tsx src/approve.ts approve <runId> [--reject] [--by name] [--reason text] [--call callId]
 *
 * `approve` decides every pending call of the run (or the one `--call` names) and continues the run
 * on whichever worker of its version takes it. DATABASE_URL must be set. Exit codes: 0 done, 1 the
 * request was refused (unknown run or call, not paused, decided by someone else, expired) or the
 * database did not answer within APPROVE_TIMEOUT_MS (default 30 s), 2 usage.
 */
import { parseArgs } from 'node:util';
import { DurableRunError, DurableRunsClient } from '@baton/dbos';
import { terminalText } from './terminalText.js';

const usage = 'usage: approve.ts pending <runId>\n       approve.ts approve <runId> [--reject] [--by name] [--reason text] [--call callId]';

// Everything printed passes through terminalText: pending calls carry model-written text.
const say = (line: string) => console.log(terminalText(line));
const complain = (line: string) => console.error(terminalText(line));

function fail(message: string, code: number, options: { usage?: boolean } = {}): never {
  if (message !== '') complain(message);
  if (options.usage) console.error(usage);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { reject: { type: 'boolean', default: false }, by: { type: 'string' }, reason: { type: 'string' }, call: { type: 'string' } },
  });
} catch (error) {
  fail((error as Error).message, 2, { usage: true });
}
const [command, runId, ...extra] = parsed.positionals;
if ((command !== 'pending' && command !== 'approve') || !runId || extra.length > 0) fail('', 2, { usage: true });
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) fail('DATABASE_URL is not set (the PostgreSQL the workers use).', 2);

// A database that is not there fails fast (the client checks it); one lost later is retried by
// DBOS's client without end, silently: a CLI gives up instead.
const timeoutMs = Number(process.env.APPROVE_TIMEOUT_MS ?? 30_000);
setTimeout(() => fail(`gave up after ${timeoutMs} ms: is the database at DATABASE_URL reachable?`, 1), timeoutMs).unref();

const client = await DurableRunsClient.create({ databaseUrl, connectTimeoutMs: Math.min(timeoutMs, 10_000) }).catch((error: unknown) =>
  fail(error instanceof DurableRunError ? `refused (${error.reason}): ${error.message}` : String(error), 1),
);
try {
  const status = await client.status(runId);
  if (command === 'pending') {
    if (status.state !== 'paused') say(`run ${runId} is ${status.state}: nothing waits for approval.`);
    else {
      say(`run ${runId} waits for ${status.pending.length} decision(s):`);
      for (const call of status.pending) {
        say(`  ${call.callId}  ${call.agent} wants ${call.toolName}(${call.arguments ?? ''})${call.expiresAt ? `, expires ${call.expiresAt}` : ''}`);
      }
    }
  } else {
    const { reject, by, reason, call } = parsed.values;
    const calls = call === undefined ? status.pending.map((pending) => pending.callId) : [call];
    if (calls.length === 0) throw new DurableRunError('not_paused', `Run ${runId} is ${status.state}, not paused: there is nothing to decide.`, runId);
    const meta = { ...(by === undefined ? {} : { decidedBy: by }), ...(reason === undefined ? {} : { reason }) };
    await client.decide(runId, calls.map((callId) => ({ callId, approved: !reject, ...meta, ...(reject && reason !== undefined ? { message: reason } : {}) })));
    const verb = reject ? 'rejected' : 'approved';
    for (const callId of calls) {
      const toolName = status.pending.find((pending) => pending.callId === callId)?.toolName ?? 'call';
      say(`${verb} ${toolName} (${callId}) of run ${runId}${by ? ` by ${by}` : ''}${reason ? `: ${reason}` : ''}; the run continues on a worker.`);
    }
  }
} catch (error) {
  process.exitCode = 1;
  complain(error instanceof DurableRunError ? `refused (${error.reason}): ${error.message}` : String(error));
} finally {
  await client.close();
}
