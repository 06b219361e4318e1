import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, Runner, Usage, shellTool, type AgentInputItem, type ModelResponse } from '../src/index.js';
import { withoutOrphanShellCalls } from '../src/state/internal/continuationItems.js';

const hostedShell = () => shellTool({ environment: { type: 'container_auto' } });
const response = (id: string, output: ModelResponse['output']): ModelResponse => ({ output, usage: new Usage({ requests: 1 }), responseId: id });
const shellCall = (callId: string, status?: 'completed' | 'in_progress' | 'incomplete') =>
  ({ type: 'shell_call', callId, ...(status ? { status } : {}), action: { commands: ['echo hi'] } }) as AgentInputItem;

describe('a hosted shell call the provider finished without its output', () => {
  it('is not sent back on the next turn, nor kept in history (result and state)', async () => {
    const model = new ScriptedModel([response('r1', [shellCall('sh_1', 'completed') as never]), response('r2', [assistantMessage('done')])]);
    const result = await new Runner().run(new Agent({ name: 'A', model, tools: [hostedShell()] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(model.calls[1]!.request.input).toEqual([{ type: 'message', role: 'user', content: 'go' }]);
    expect(result.history.some((item) => item.type === 'shell_call')).toBe(false);
    expect(result.state.history.some((item) => item.type === 'shell_call')).toBe(false);
    // It stays in the run's items: it happened.
    expect(result.newItems.some((item) => item.rawItem.type === 'shell_call')).toBe(true);
  });

  it('a call still in progress is sent back (the provider is running it)', async () => {
    const model = new ScriptedModel([response('r1', [shellCall('sh_1', 'in_progress') as never]), response('r2', [assistantMessage('done')])]);
    await new Runner().run(new Agent({ name: 'A', model, tools: [hostedShell()] }), 'go');
    expect(model.calls[1]!.request.input).toMatchObject([{ type: 'message' }, { type: 'shell_call', callId: 'sh_1', status: 'in_progress' }]);
  });
});

describe('withoutOrphanShellCalls', () => {
  const reasoning = (id: string) => ({ type: 'reasoning', id, content: [] }) as AgentInputItem;
  const output = (callId: string) => ({ type: 'shell_call_output', callId, output: [] }) as AgentInputItem;

  it('keeps answered, pending and status-less calls, drops finished ones without output with the reasoning before them', () => {
    const items = [
      reasoning('rs_1'),
      reasoning('rs_2'),
      shellCall('orphan', 'incomplete'),
      reasoning('rs_3'),
      shellCall('answered', 'completed'),
      output('answered'),
      shellCall('pending'),
    ];
    expect(withoutOrphanShellCalls(items)).toEqual([reasoning('rs_3'), shellCall('answered', 'completed'), output('answered'), shellCall('pending')]);
  });

  it('returns the same list when nothing is dropped', () => {
    const items = [shellCall('a', 'completed'), output('a')];
    expect(withoutOrphanShellCalls(items)).toBe(items);
  });
});
