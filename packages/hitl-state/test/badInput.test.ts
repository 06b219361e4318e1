import { MAX_RUN_STATE_DEPTH, readRunStateValue } from '@baton/types/internal';
import { describe, expect, it } from 'vitest';
import { RunState, run } from '@baton/core';
import { RunStateError } from '@baton/types';
import { approvalRecords, checkResumable, inspectRunState } from '../src/index.js';
import { weatherScenario } from './support/scenarios.js';

const scenario = weatherScenario({ afterResume: [] });
const paused = await run(scenario.root, 'weather in Oakland and San Francisco?');
const valid = paused.state.toString();
const root = weatherScenario({ resumeOnly: true }).root;

function withChange(change: (state: any) => void): string {
  const state = JSON.parse(valid);
  change(state);
  return JSON.stringify(state);
}

async function errorOf(text: string): Promise<RunStateError> {
  const error = await RunState.fromString(root, text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunStateError);
  return error as RunStateError;
}

describe('unreadable input', () => {
  it.each([
    ['truncated', valid.slice(0, Math.floor(valid.length / 2))],
    ['empty', ''],
    ['not JSON', 'run state, please'],
    ['a JSON fragment', '{"$schemaVersion": "1",'],
  ])('%s: invalid_json with the reference message', async (_label, text) => {
    const error = await errorOf(text);
    expect(error.reason).toBe('invalid_json');
    expect(error.name).toBe('RunStateError');
    expect(error.message).toMatch(/^Failed to parse run state\. /);
    expect(() => inspectRunState(text)).toThrow(RunStateError);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
  ])('%s: invalid_state', async (_label, text) => {
    expect((await errorOf(text)).reason).toBe('invalid_state');
  });

  it('a value that is not a string', async () => {
    await expect(RunState.fromString(root, 42 as never)).rejects.toThrow('Failed to parse run state. Expected a string, got number.');
  });
});

describe('schema versions', () => {
  it('missing: the reference message', async () => {
    const error = await errorOf(withChange((s) => delete s.$schemaVersion));
    expect(error).toMatchObject({ reason: 'missing_version', message: 'Run state is missing schema version' });
  });

  // (A 1.x version is one the reference wrote, read as the reference's state: see referenceStates.)
  it.each([['9.5'], ['abc'], ['0'], ['01']])('unknown %s: the reference message', async (version) => {
    const error = await errorOf(withChange((s) => (s.$schemaVersion = version)));
    expect(error).toMatchObject({ reason: 'unsupported_version', message: `Run state schema version ${version} is not supported. Please use version 3.` });
  });

  it('not a string', async () => {
    const error = await errorOf(withChange((s) => (s.$schemaVersion = 1)));
    expect(error.message).toBe('Run state schema version 1 is not supported. Please use version 3.');
  });

  it('newer: an error that names both versions', async () => {
    const error = await errorOf(withChange((s) => (s.$schemaVersion = '4')));
    expect(error).toMatchObject({ reason: 'newer_version', foundVersion: '4', supportedVersion: '3' });
    expect(error.message).toMatch(/^Run state schema version 4 is newer than this version of Baton supports \(schema version 3\)\./);
    expect(inspectRunState(withChange((s) => (s.$schemaVersion = '4')))).toMatchObject({ supported: false, schemaVersion: '4', currentSchemaVersion: '3', reason: 'newer_version' });
  });
});

describe('wrong field types', () => {
  it.each<[string, (s: any) => void, string]>([
    ['currentTurn as a string', (s) => (s.currentTurn = '2'), '$.currentTurn'],
    ['a negative currentTurn', (s) => (s.currentTurn = -1), '$.currentTurn'],
    ['a call id that is a number', (s) => (s.generatedItems[3].rawItem.callId = 5), '$.generatedItems[3].rawItem.callId'],
    ['a function call without arguments', (s) => delete s.modelResponses[1].output[1].arguments, '$.modelResponses[1].output[1].arguments'],
    ['an unknown item type', (s) => (s.generatedItems[0].type = 'mystery_item'), '$.generatedItems[0].type'],
    ['usage that is missing', (s) => delete s.modelResponses[0].usage, '$.modelResponses[0].usage'],
    ['an approval decision that is a string', (s) => (s.context.approvals = { get_weather: { approved: 'yes', rejected: [] } }), '$.context.approvals.get_weather.approved'],
    ['an agent reference without a name', (s) => (s.currentAgent = {}), '$.currentAgent.name'],
    ['an expiry that is not a date', (s) => (s.context.approvalRequests = { get_weather: { call_sf: { expiresAt: 'soon' } } }), '$.context.approvalRequests.get_weather.call_sf.expiresAt'],
    ['a nested run that is not a string', (s) => (s.pendingAgentToolRuns = { 'a:b': {} }), '$.pendingAgentToolRuns["a:b"]'],
  ])('%s: invalid_state naming the path', async (_label, change, path) => {
    const error = await errorOf(withChange(change));
    expect(error.reason).toBe('invalid_state');
    expect(error.message).toContain(`${path}:`);
  });

  it('an agent reference the graph does not contain: unresolved_agent with its path', async () => {
    const error = await errorOf(withChange((s) => (s.generatedItems[1].targetAgent = { name: 'Ghost agent' })));
    expect(error).toMatchObject({ reason: 'unresolved_agent', path: ['generatedItems', 1, 'targetAgent'] });
    expect(error.message).toContain('Agent Ghost agent not found in the agent graph of "Basic test agent" (referenced at $.generatedItems[1].targetAgent)');
  });
});

describe('prototype keys', () => {
  const pollutes = () => ({}) as Record<string, unknown>;

  it.each<[string, string]>([
    ['at the top level', valid.replace('{"$schemaVersion":"3",', '{"$schemaVersion":"3","__proto__":{"polluted":true},')],
    ['in the application context', valid.replace('"context":{"context":{}', '"context":{"context":{"__proto__":{"polluted":true}}')],
    ['as an approval tool name', withChange((s) => (s.context.approvals = JSON.parse('{"__proto__":{"approved":true,"rejected":[]}}')))],
    ['in a raw item', valid.replace('"rawItem":{', '"rawItem":{"__proto__":{"polluted":true},')],
  ])('__proto__ %s: prototype_key, and nothing is polluted', async (_label, text) => {
    expect(text).toContain('__proto__');
    const error = await errorOf(text);
    expect(error.reason).toBe('prototype_key');
    expect(error.message).toMatch(/"__proto__" key at \$/);
    expect(pollutes().polluted).toBeUndefined();
    expect(() => inspectRunState(text)).toThrow(RunStateError);
  });

  it.each<[string, (s: any) => void]>([
    ['an approval tool name', (s) => (s.context.approvals = { constructor: { approved: true, rejected: [] } })],
    ['a rejection message call id', (s) => (s.context.approvals = { get_weather: { approved: [], rejected: ['x'], messages: { constructor: 'no' } } })],
    ['a nested-run key', (s) => (s.pendingAgentToolRuns = { prototype: '{}' })],
  ])('constructor / prototype as %s: prototype_key', async (_label, change) => {
    const error = await errorOf(withChange(change));
    expect(error.reason).toBe('prototype_key');
    expect(Object.prototype.constructor).toBe(Object);
  });

  it('a "constructor" key in application data is kept as data, and pollutes nothing', async () => {
    const text = withChange((s) => (s.context.context = { constructor: { prototype: { polluted: true } } }));
    const state = await RunState.fromString(root, text);
    expect(state.context.context).toEqual({ constructor: { prototype: { polluted: true } } });
    expect(pollutes().polluted).toBeUndefined();
    expect(({}).constructor).toBe(Object);
  });

  it('a parsed object with a __proto__ key is refused without being changed', () => {
    const value = JSON.parse(valid.replace('"context":{"context":{}', '"context":{"context":{"__proto__":{"x":1}}'));
    const before = JSON.stringify(value);
    expect(() => readRunStateValue(value)).toThrow(expect.objectContaining({ reason: 'prototype_key' }));
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('deeply nested input', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  // Written as text: JSON.stringify itself overflows the stack on values this deep.
  const deepText = (depth: number) => `${'['.repeat(depth)}"bottom"${']'.repeat(depth)}`;

  it.each<[string, (s: any) => void, Array<string | number>]>([
    ['in the application context', (s) => (s.context.context = { data: 'DEEP' }), ['context', 'context', 'data']],
    ['as $schemaVersion', (s) => (s.$schemaVersion = 'DEEP'), ['$schemaVersion']],
    ['in a raw item', (s) => (s.generatedItems[0].rawItem.extra = 'DEEP'), ['generatedItems', 0, 'rawItem', 'extra']],
  ])('%s: too_deep with the path, from every reader (never a RangeError)', async (_label, change, pathStart) => {
    const text = withChange(change).replace('"DEEP"', deepText(5_000));
    const error = await errorOf(text);
    expect(error.reason).toBe('too_deep');
    expect(error.path?.slice(0, pathStart.length)).toEqual(pathStart);
    expect(error.message).toContain(`deeper than ${MAX_RUN_STATE_DEPTH} levels`);
    for (const read of [() => inspectRunState(text), () => approvalRecords(text)]) expect(read).toThrow(expect.objectContaining({ reason: 'too_deep' }));
    await expect(checkResumable(root, text)).rejects.toMatchObject({ reason: 'too_deep' });
  });

  it('context data up to the limit is read and written back unchanged', async () => {
    const depth = MAX_RUN_STATE_DEPTH - 3; // the state, its context and the application context take three levels
    const text = withChange((s) => (s.context.context = { data: nested(depth) }));
    const state = await RunState.fromString(root, text);
    expect(JSON.parse(state.toString()).context.context).toEqual({ data: nested(depth) });
  });

  it('toString() of a live context too deep to serialize is a RunStateError, not a stack overflow', async () => {
    const deep = nested(200_000);
    const { paused: live } = { paused: await run(weatherScenario({ afterResume: [] }).root, 'weather in Oakland and San Francisco?', { context: { deep } }) };
    expect(() => live.state.toString()).toThrow(expect.objectContaining({ reason: 'too_deep', name: 'RunStateError' }));
  });
});

describe('resuming a state twice', () => {
  it('while it is being resumed: the second run fails with already_resuming, the tool runs once', async () => {
    const other = weatherScenario({ resumeOnly: true });
    const state = await RunState.fromString(other.root, valid);
    state.approve(state.getInterruptions()[0]!);
    const [first, second] = await Promise.allSettled([run(other.root, state), run(other.root, state)]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    const error = (second as PromiseRejectedResult).reason as RunStateError;
    expect(error).toBeInstanceOf(RunStateError);
    expect(error.reason).toBe('already_resuming');
    expect(error.message).toContain('already being resumed');
    expect(other.executions.calls).toEqual(['get_weather:San Francisco']);
  });

  it('after it finished: the same answer again (as the reference), no tool or model call, and the state is unchanged', async () => {
    const other = weatherScenario({ resumeOnly: true });
    const state = await RunState.fromString(other.root, valid);
    state.approve(state.getInterruptions()[0]!);
    const first = await run(other.root, state);
    const finished = state.toString();
    const again = await run(other.root, state);
    expect(again.finalOutput).toBe(first.finalOutput);
    expect(other.executions.calls).toEqual(['get_weather:San Francisco']);
    expect(state.toString()).toBe(finished);
  });
});
