import type { Agent } from '@baton/core';
import { AgentsError } from '@baton/types';
import { agentGraphOf, graphIssues, graphReport, type AgentGraph } from './agentGraph.js';
import type { GraphRecorder } from './graphRecorder.js';
import type { Json } from './workflowTypes.js';

/** Why a workflow cannot go on: the recorded graph had what this worker's graph lost. */
export interface GraphLoss {
  readonly message: string;
  readonly report: Json;
}

/**
 * Thrown by a step's body, before it does anything, when the run's recorded agent graph has
 * something this worker's graph lost. The workflow ends with the graph's report instead (it asks
 * `loss()` before it reports any outcome); the error only names the cause should a replay meet it.
 */
export class AgentGraphChanged extends AgentsError {}

/**
 * The check of a workflow's agent graph, started when the workflow starts and overlapping the run's
 * first round trips (DBOS's checks before the first step, the loop's setup) instead of being one
 * more round trip before them. The worker's `GraphRecorder` (one statement for the workflows that
 * start together) records the graph this workflow first ran on
 * (and clears a deleted run's leftovers) and returns the recorded one: on a replay, the graph the
 * run's committed steps were made with.
 *
 * What it keeps: no step's body runs before the check has passed (`beforeStep`), so a step's output
 * commits only after the graph it was made on is recorded (a replay always finds it), and no step
 * runs on a graph that lost an agent, tool or handoff the run may rely on. A replayed step (its
 * output already committed) runs nothing, so the loop may replay committed steps meanwhile; the
 * workflow asks `loss()` before it reports any outcome, so a graph that lost something ends the
 * run with the report, whatever the loop did on it.
 */
export class GraphGate {
  readonly #check: Promise<GraphLoss | undefined>;

  constructor(recorder: GraphRecorder, run: { readonly runId: string; readonly revision: number; readonly incarnation: string }, agent: Agent<any, any>) {
    const current = agentGraphOf(agent);
    this.#check = recorder.record({ ...run, graph: current as unknown as Json }).then((recorded) => {
      const lost = graphIssues(recorded as unknown as AgentGraph, current);
      if (lost.length === 0) return undefined;
      const message = `Run ${run.runId} cannot continue on this worker's agent graph, which changed since the run started: ${lost.map((issue) => issue.message).join('; ')}`;
      return { message, report: graphReport(lost) };
    });
    // Awaited by every outcome; a database error here surfaces there (and in the step that waits on it).
    this.#check.catch(() => {});
  }

  /** What this worker's graph lost against the recorded one, once checked; rejects when the check could not be made. */
  loss(): Promise<GraphLoss | undefined> {
    return this.#check;
  }

  /** Resolves once the graph is recorded and fits; a step's body awaits it before it runs. */
  async beforeStep(): Promise<void> {
    const loss = await this.#check;
    if (loss !== undefined) throw new AgentGraphChanged(loss.message);
  }
}
