import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, Runner, type AgentInputItem } from '../src/index.js';

const call = (args: string): AgentInputItem => ({ type: 'function_call', callId: 'call_1', name: 'lookup', arguments: args });
const result = (text: string): AgentInputItem => ({ type: 'function_call_result', callId: 'call_1', name: 'lookup', status: 'completed', output: text });

async function sentAfterFilter(input: AgentInputItem[], stream = false): Promise<unknown> {
  const model = new ScriptedModel([[assistantMessage('ok')]]);
  const runner = new Runner({ callModelInputFilter: () => ({ input }) });
  const run = await runner.run(new Agent({ name: 'Filtered', model }), 'start', { stream } as { stream: false });
  if (stream) await (run as unknown as { completed: Promise<void> }).completed;
  return model.calls[0]!.request.input;
}

describe('callModelInputFilter items given twice', () => {
  it('sends a call once, its latest version at its first place (before its output)', async () => {
    expect(await sentAfterFilter([call('{"v":"old"}'), result('done'), call('{"v":"new"}')])).toEqual([call('{"v":"new"}'), result('done')]);
  });

  it('sends an output once, its latest version at its last place (after its call), streamed too', async () => {
    expect(await sentAfterFilter([result('old'), call('{}'), result('new')], true)).toEqual([call('{}'), result('new')]);
  });

  it('leaves messages alone, equal ones included', async () => {
    const note: AgentInputItem = { type: 'message', role: 'user', content: 'same' };
    expect(await sentAfterFilter([note, { ...note }])).toEqual([note, note]);
  });
});
