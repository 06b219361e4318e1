import { AsyncResource } from 'node:async_hooks';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Runner, RunState, RunContext, type Agent, type RunConfig, type RunToolApprovalItem } from '@baton/core';
import { checkResumable, setApprovalExpiries } from '@baton/hitl-state';
import { AgentsError, type AgentInputItem } from '@baton/types';
import { dbosStepRunner, type InWorkflow } from './dbosStepRunner.js';
import type { ErrorClass } from './stepFailure.js';
import { GraphGate } from './graphGate.js';
import type { GraphRecorder } from './graphRecorder.js';
import type { RunEventBatcher } from './runEventBatcher.js';
import { RunEventWriter } from './runEventWriter.js';
import { runIdProblem, runWorkflowId } from './workflowIds.js';
import type { ApprovalDecision, Json, PendingApproval, RunWorkflowInput, RunWorkflowOutput } from './workflowTypes.js';

/** What a worker gives the workflow: its agents, how to run them, where events go. */
export interface RunWorkflowEnv {
  readonly agents: ReadonlyMap<string, Agent<any, any>>;
  readonly runner: Omit<RunConfig, 'stepRunner'>;
  /** The error classes a failed step's recorded error is rebuilt as on replay, by name. */
  readonly errorClasses: ReadonlyMap<string, ErrorClass>;
  /** Where the workflow's first statement goes (its agent graph), batched across the worker's runs. */
  readonly graphs: GraphRecorder;
  /** The worker's run-event writes, batched across its runs. */
  readonly events: RunEventBatcher;
  readonly approvalTtlMs: number | undefined;
  /** Starts the timer that continues the run with `next` (undecided calls rejected) when its approvals expire. */
  readonly startExpiryTimer: (next: RunWorkflowInput, expiresAt: string) => Promise<void>;
}

/**
 * One workflow of a durable run: start the agent on its input, or continue a paused state with the
 * decisions a client sent. Every outside effect of the run is a DBOS step (through the step runner),
 * so after a crash the workflow replays: committed model answers and tool outputs come back from the
 * database instead of being requested or executed again. A pause ends the workflow with the state in
 * its output; the next decision starts the next workflow of the run. A run that fails (a tripped
 * guardrail, a model error, a state that no longer fits the agent graph) ends the workflow with a
 * `failed` output, not an error of the worker.
 */
export async function runWorkflow(env: RunWorkflowEnv, input: RunWorkflowInput): Promise<RunWorkflowOutput> {
  // Bound here, where DBOS's async context is the workflow's: Effect's scheduler does not carry it.
  const inWorkflow = AsyncResource.bind(<T>(fn: () => T): T => fn()) as InWorkflow;
  const { runId, revision } = input;
  const failed = (name: string, message: string, report?: Json): RunWorkflowOutput => ({ status: 'failed', runId, revision, error: { name, message, ...(report === undefined ? {} : { report }) } });
  // The client checked the id; a workflow enqueued some other way (DBOS's own client) is checked here,
  // before any step: a crafted id must not continue another run's paused state.
  const notOurs = workflowIdProblem(input, DBOS.workflowID);
  if (notOurs !== undefined) return failed('DurableRunError', notOurs);
  const incarnation = input.incarnation ?? '';
  const agent = env.agents.get(input.agent);
  if (!agent) return failed('DurableRunError', `Run ${runId}: this worker has no agent registered as "${input.agent}" (it has: ${[...env.agents.keys()].join(', ')}).`);

  // The graph this workflow first ran on is recorded (in the statement that also clears a deleted
  // run's leftovers, should its id be used again) while the run starts: no step's body runs before
  // it is recorded and checked. A replay (a worker took the run over) gets the recorded one back,
  // and a graph that lost something the run may rely on (an agent, a tool, a handoff renamed under
  // the same version) runs no step: the workflow ends with the report (`graphGate.ts`).
  const gate = new GraphGate(env.graphs, { runId, revision, incarnation }, agent);
  /** The outcome to report: the graph's report when it lost something (whatever the loop did on it follows from that), else `outcome`. */
  const graphFirst = async (outcome: () => RunWorkflowOutput): Promise<RunWorkflowOutput> => {
    const loss = await gate.loss();
    return loss === undefined ? outcome() : failed('ResumabilityError', loss.message, loss.report);
  };

  let start: string | AgentInputItem[] | RunState<any, any>;
  if (input.start.kind === 'resume') {
    const report = await checkResumable(agent, input.start.state);
    if (!report.ok) return graphFirst(() => failed('ResumabilityError', `Run ${runId} cannot resume on this worker's agent graph: ${report.issues.map((issue) => issue.message).join('; ')}`, report as unknown as Json));
    const { state: text, decisions } = input.start;
    try {
      const decided = await inWorkflow(() => DBOS.runStep(async () => (await gate.beforeStep(), applyDecisions(agent, text, decisions)), { name: `r${revision}:decisions` }));
      start = await RunState.fromString(agent, decided);
    } catch (error) {
      return graphFirst(() => {
        throw error;
      });
    }
  } else {
    start = input.start.input;
  }

  const runner = new Runner({ ...env.runner, stepRunner: dbosStepRunner(runId, inWorkflow, env.errorClasses, () => gate.beforeStep()) });
  const options = { stream: true as const, ...(input.maxTurns === undefined ? {} : { maxTurns: input.maxTurns }) };
  const context = input.context === undefined || start instanceof RunState ? {} : { context: new RunContext(input.context) };
  const events = new RunEventWriter(env.events, { runId, revision, incarnation });
  try {
    const result = await runner.run(agent, start, { ...options, ...context });
    for await (const event of result) {
      if (event.type !== 'run_item_stream_event' && event.type !== 'agent_updated_stream_event') continue;
      const data = event.type === 'run_item_stream_event' ? { type: event.type, name: event.name, item: event.item.toJSON() } : { type: event.type, agent: event.agent.name };
      events.add(data);
    }
    await result.completed;
    await events.flush();
    if (result.interruptions.length === 0) {
      // A completed run keeps no state: nothing continues it (a paused one keeps its state, to resume).
      return graphFirst(() => ({ status: 'completed', runId, revision, finalOutput: toJson(result.finalOutput), lastAgent: result.lastAgent?.name }));
    }
    const graphLoss = await gate.loss();
    if (graphLoss !== undefined) return failed('ResumabilityError', graphLoss.message, graphLoss.report);
    const state = result.state;
    const ttlMs = input.approvalTtlMs ?? env.approvalTtlMs;
    if (ttlMs !== undefined) {
      // The deadline is a step: a replay sets the same one.
      const expiresAt = await inWorkflow(() => DBOS.runStep(async () => new Date(Date.now() + ttlMs).toISOString(), { name: `r${revision}:expiry` }));
      setApprovalExpiries(state, { expiresAt });
      const next: RunWorkflowInput = { ...input, revision: revision + 1, start: { kind: 'resume', state: state.toString(), decisions: [] } };
      await inWorkflow(() => env.startExpiryTimer(next, expiresAt));
    }
    return { status: 'paused', runId, revision, pending: pendingOf(state.getInterruptions(), state), state: state.toString() };
  } catch (error) {
    // The items the run produced before it failed are written too.
    await events.flush();
    // A graph that lost something comes first: whatever the loop did on it (a replayed answer naming
    // a tool it no longer has, DBOS's check that the steps come in the recorded order) follows from that.
    return graphFirst(() => {
      if (error instanceof AgentsError) return failed(error.name, error.message);
      throw error;
    });
  }
}

/** A paused state with a client's decisions applied, judged at the time each was made. */
async function applyDecisions(agent: Agent<any, any>, text: string, decisions: readonly ApprovalDecision[]): Promise<string> {
  const state = await RunState.fromString(agent, text);
  const pending = new Map(state.getInterruptions().map((item) => [item.callId, item]));
  for (const decision of decisions) {
    const item = pending.get(decision.callId);
    if (!item) continue; // the client checked; a call answered meanwhile (by an expiry) keeps its answer
    const at = Date.parse(decision.decidedAt);
    state.context.useClock({ currentTimeMillisUnsafe: () => at });
    const meta = { decidedAt: decision.decidedAt, ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }), ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
    if (decision.approved) state.approve(item, meta);
    else state.reject(item, { ...meta, ...(decision.message === undefined ? {} : { message: decision.message }) });
  }
  return state.toString();
}

function pendingOf(items: readonly RunToolApprovalItem[], state: RunState<any, any>): PendingApproval[] {
  return items.map((item) => {
    const request = state.context.getApprovalRequest({ toolName: item.toolName, callId: item.callId });
    return {
      callId: item.callId,
      toolName: item.toolName,
      arguments: item.arguments,
      agent: item.agent.name,
      ...(request?.expiresAt === undefined ? {} : { expiresAt: request.expiresAt }),
    };
  });
}

function toJson(value: unknown): Json {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as Json);
}

/** Why this workflow cannot be the run workflow `input` names: a malformed run id, or a workflow id that is not the run's for that revision. */
function workflowIdProblem(input: RunWorkflowInput, workflowId: string | undefined): string | undefined {
  const problem = runIdProblem(input.runId);
  if (problem !== undefined) return `Workflow ${String(workflowId)} was given a malformed run id: ${problem}`;
  if (!Number.isSafeInteger(input.revision) || input.revision < 0) return `Workflow ${String(workflowId)} of run ${input.runId} was given the revision ${String(input.revision)}, not a whole number >= 0.`;
  const expected = runWorkflowId(input.runId, input.revision);
  if (workflowId !== expected) return `Workflow ${String(workflowId)} is not a workflow of run ${input.runId}: revision ${input.revision} of run ${input.runId} is ${expected}.`;
  return undefined;
}
