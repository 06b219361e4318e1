import Database from 'better-sqlite3';
import { Agent, run, tool } from '@baton/core';
import { SqliteRunStateStore, approvalRecords, checkResumable, inspectRunState, resumePausedRun, setApprovalExpiries, updatePausedRun } from '@baton/hitl-state';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

function weatherAgent(model: ScriptedModel) {
  const getWeather = tool({
    name: 'get_weather',
    description: 'Get the weather for a city',
    parameters: z.object({ location: z.string() }),
    needsApproval: async (_context, { location }) => location === 'San Francisco',
    execute: ({ location }) => `The weather in ${location} is sunny`,
  });
  return new Agent({ name: 'Weather agent', model, tools: [getWeather] });
}

// One SQLite file shared by every process (PostgresRunStateStore(pool) works the same way).
const store = new SqliteRunStateStore(new Database(':memory:'));
await store.init();

// Process 1: run until a tool needs approval; give the approval a day; store the paused run.
const paused = await run(weatherAgent(new ScriptedModel([[functionCall('get_weather', { location: 'San Francisco' })]])), 'Weather in San Francisco?');
setApprovalExpiries(paused.state, { ttlMs: 24 * 60 * 60 * 1000 });
await store.save('run-42', paused.state);

// Anywhere, without the agent graph: what is waiting for a decision?
const summary = inspectRunState((await store.load('run-42'))!.state);
if (summary.supported) console.log(summary.pendingApprovals.map((a) => a.toolName)); // [ 'get_weather' ]

// An approval UI: check the stored run against the graph it rebuilt, then record a decision.
const agent = weatherAgent(new ScriptedModel([[assistantMessage('It is sunny in San Francisco.')]]));
const report = await checkResumable(agent, (await store.load('run-42'))!.state);
if (!report.ok) throw new Error(JSON.stringify(report.issues));
await updatePausedRun(store, 'run-42', agent, (state) => {
  state.approve(state.getInterruptions()[0]!, { decidedBy: 'ada@example.com', reason: 'ok to look up' });
});

// A worker: claim and resume it once (a second worker racing for it gets `not_claimed`).
const outcome = await resumePausedRun(store, 'run-42', agent, { workerId: 'worker-1' });
if (outcome.status === 'completed') console.log(outcome.result.finalOutput); // It is sunny in San Francisco.
const [record] = approvalRecords((await store.load('run-42'))!.state);
console.log(record?.status, record?.decidedBy); // approved ada@example.com
