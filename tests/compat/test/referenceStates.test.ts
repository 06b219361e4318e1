import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inspectRunState } from '@baton/agents';
import { scenarios } from '../fixtures/referenceScenarios.mjs';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

/**
 * Paused runs stored by @openai/agents 0.20.0 (fixtures written by the real package with
 * fixtures/generate-reference-states.mjs) resume on Baton with the same outcome as on the reference:
 * each fixture is read on both SDKs, its undecided approvals are approved, and both runs go on with
 * the same scripted model.
 */
const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string) => readFileSync(join(here, '..', 'fixtures', 'reference-states', `${name}.json`), 'utf8');

type Decidable = { isToolApproved(target: { toolName: string; callId: string }): boolean | undefined };

async function resumeStored({ sdk, testing }: SdkUnderTest, name: string) {
  const scenario = scenarios.find((s) => s.name === name)!;
  const executed: string[] = [];
  const { root, model } = scenario.build({ ...sdk, ...testing }, executed, true);
  const stored = await sdk.RunState.fromString(root, fixture(name));
  const context = ((stored as unknown as { _context?: Decidable })._context ?? (stored as unknown as { context: Decidable }).context)!;
  const pending = stored.getInterruptions();
  for (const item of pending) {
    if (context.isToolApproved({ toolName: item.name ?? (item as { toolName: string }).toolName, callId: item.rawItem.callId }) === undefined) stored.approve(item);
  }
  const result = await outcomeOf(sdk.run(root, stored));
  const lastInput = (model.lastCall?.request.input ?? []) as Array<{ type?: string; callId?: string; output?: unknown }>;
  return {
    pending: pending.map((p) => p.rawItem.callId),
    outcome: result.ok ? result.value.finalOutput : result.name,
    lastAgent: result.ok ? result.value.lastAgent?.name : undefined,
    modelCalls: model.calls.length,
    executed,
    toolResults: lastInput.filter((i) => i.type === 'function_call_result').map((i) => [i.callId, i.output]),
    userMessages: (lastInput as Array<{ role?: string; content?: unknown }>).filter((i) => i.role === 'user').map((i) => i.content),
  };
}

describe('paused runs stored by @openai/agents 0.20.0 resume on Baton', () => {
  it.each(scenarios.map((s) => s.name))('%s: the same outcome as resuming it on the reference', async (name) => {
    const both = await onBoth((under) => resumeStored(under, name));
    expect(both.baton).toEqual(both.reference);
    expect(both.baton.outcome).not.toMatch(/Error$/);
  });

  it('inspectRunState recognises them: version, agent and pending approvals', () => {
    const summary = inspectRunState(fixture('decided-approvals'));
    expect(summary).toMatchObject({ supported: true, schemaVersion: '1.22' });
    if (!summary.supported) return;
    expect(summary.pendingApprovals.map((a) => a.callId)).toEqual(['call_a', 'call_b', 'call_c']);
  });
});

describe('reference states Baton cannot honour fail whole, naming what is missing', () => {
  const base = () => JSON.parse(fixture('one-pending-approval')) as Record<string, any>;
  const read = async (json: unknown) => {
    const { RunState, Agent, RunStateError } = await import('@baton/agents');
    const error = await RunState.fromString(new Agent({ name: 'Banker' }), JSON.stringify(json)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunStateError);
    return error as { reason: string; message: string };
  };

  it('a newer reference schema', async () => {
    const error = await read({ ...base(), $schemaVersion: '1.99' });
    expect(error.reason).toBe('newer_version');
    expect(error.message).toContain('1.99');
  });

  it('a computer tool approval', async () => {
    const json = base();
    json.currentStep.data.interruptions[0].rawItem.type = 'computer_call';
    const error = await read(json);
    expect(error.reason).toBe('unsupported_feature');
    expect(error.message).toContain('computer tool approvals');
  });

  it('a sandbox session', async () => {
    const error = await read({ ...base(), sandbox: { id: 'sb_1' } });
    expect(error).toMatchObject({ reason: 'unsupported_feature' });
    expect(error.message).toContain('sandbox sessions');
  });

  it('a paused nested run of a tool the rebuilt graph lacks', async () => {
    const error = await read({ ...base(), pendingAgentToolRuns: { '["bare","helper"]:call_9': '{}' } });
    expect(error).toMatchObject({ reason: 'unresolved_tool' });
    expect(error.message).toContain('helper');
  });

  it('a nested run that uses a feature Baton lacks fails the whole state, naming where', async () => {
    const { RunState, Agent, RunStateError } = await import('@baton/agents');
    const json = JSON.parse(fixture('nested-agent-tool')) as Record<string, any>;
    const [key] = Object.keys(json.pendingAgentToolRuns);
    const nested = JSON.parse(json.pendingAgentToolRuns[key!]);
    nested.currentStep.data.interruptions[0].rawItem.type = 'shell_call';
    json.pendingAgentToolRuns[key!] = JSON.stringify(nested);
    const accountant = new Agent({ name: 'Accountant' });
    const root = new Agent({ name: 'Manager', tools: [accountant.asTool({ toolName: 'accountant', toolDescription: 'Pays invoices' })] });
    const error = await RunState.fromString(root, JSON.stringify(json)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStateError);
    expect(error).toMatchObject({ reason: 'unsupported_feature' });
    expect((error as Error).message).toContain('shell tool approvals');
    expect((error as { path?: unknown[] }).path?.slice(0, 2)).toEqual(['pendingAgentToolRuns', 'accountant:call_n']);
  });
});

describe('the tool input stored with a reference state', () => {
  // The reference keeps context.toolInput (the input a nested agent-tool run was given) in its states.
  const withToolInput = () => {
    const json = JSON.parse(fixture('added-input'));
    json.context.toolInput = { q: 1 };
    return JSON.stringify(json);
  };

  it.each(['fromString', 'merge into a context without one'] as const)('%s: restored as on the reference', async (how) => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const scenario = scenarios.find((s) => s.name === 'added-input')!;
      const { root } = scenario.build({ ...sdk, ...testing }, [], true);
      const state =
        how === 'fromString'
          ? await sdk.RunState.fromString(root, withToolInput())
          : await sdk.RunState.fromStringWithContext(root, withToolInput(), new sdk.RunContext({}), { contextStrategy: 'merge' });
      return ((state as unknown as { _context?: { toolInput?: unknown } })._context ?? (state as unknown as { context: { toolInput?: unknown } }).context).toolInput;
    });
    expect(both.baton).toEqual({ q: 1 });
    expect(both.baton).toEqual(both.reference);
  });
});
