import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, MemorySession, RunContext, run, tool, type AgentInputItem, type RunContextAwareSession } from '../src/index.js';

type Tenant = { tenant: string };

/** Keeps one history per tenant, chosen by the run context each call receives. */
class PerTenantSession implements RunContextAwareSession<Tenant> {
  readonly acceptsRunContext = true;
  readonly histories = new Map<string, AgentInputItem[]>();
  readonly seen: Array<RunContext<Tenant> | undefined> = [];

  async getSessionId() {
    return 'per-tenant';
  }
  async getItems(limit?: number, runContext?: RunContext<Tenant>) {
    this.seen.push(runContext);
    const items = this.#of(runContext);
    return limit === undefined ? [...items] : items.slice(-limit);
  }
  async addItems(items: AgentInputItem[], runContext?: RunContext<Tenant>) {
    this.seen.push(runContext);
    this.#of(runContext).push(...items);
  }
  async popItem(runContext?: RunContext<Tenant>) {
    return this.#of(runContext).pop();
  }
  async clearSession(runContext?: RunContext<Tenant>) {
    this.histories.delete(this.#key(runContext));
  }
  #key(runContext: RunContext<Tenant> | undefined) {
    if (!runContext) throw new Error('PerTenantSession needs the run context');
    return runContext.context.tenant;
  }
  #of(runContext: RunContext<Tenant> | undefined) {
    const key = this.#key(runContext);
    if (!this.histories.has(key)) this.histories.set(key, []);
    return this.histories.get(key)!;
  }
}

describe('a session that accepts the run context', () => {
  it.each([false, true])('receives the run’s context on every read and write (stream: %s)', async (stream) => {
    const session = new PerTenantSession();
    const agent = new Agent({ name: 'Desk', model: new ScriptedModel([[assistantMessage('hello, acme')]]) });
    const result = stream
      ? await run(agent, 'hi', { context: { tenant: 'acme' }, session, stream: true })
      : await run(agent, 'hi', { context: { tenant: 'acme' }, session });
    if ('completed' in result) {
      for await (const _ of result);
      await result.completed;
    }
    expect(session.seen).toHaveLength(2);
    expect(session.seen.every((context) => context === result.runContext)).toBe(true);
    expect(session.histories.get('acme')).toHaveLength(2);
  });

  it('keeps the paused run’s context when the run resumes', async () => {
    const session = new PerTenantSession();
    const refund = tool({ name: 'refund', description: '', parameters: z.object({}), needsApproval: true, execute: () => 'refunded' });
    const model = new ScriptedModel([[functionCall('refund', {}, { callId: 'r1' })], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'Desk', model, tools: [refund] });
    const paused = await run(agent, 'refund me', { context: { tenant: 'globex' }, session });
    paused.state.approve(paused.interruptions[0]!);
    session.seen.length = 0;
    const resumed = await run(agent, paused.state, { session });
    expect(resumed.finalOutput).toBe('done');
    expect(session.seen.length).toBeGreaterThan(0);
    expect(session.seen.every((context) => context === paused.runContext)).toBe(true);
    expect(session.histories.get('globex')!.length).toBeGreaterThanOrEqual(4);
  });

  it('a session that does not opt in is called with its usual arguments only', async () => {
    const counts: number[] = [];
    class Counting extends MemorySession {
      override async getItems(...args: [number?]) {
        counts.push(args.length);
        return super.getItems(...args);
      }
      override async addItems(...args: [AgentInputItem[]]) {
        counts.push(args.length);
        return super.addItems(...args);
      }
    }
    await run(new Agent({ name: 'Desk', model: new ScriptedModel([[assistantMessage('ok')]]) }), 'hi', { context: { tenant: 'x' }, session: new Counting() });
    expect(counts).toEqual([0, 1]);
  });
});
