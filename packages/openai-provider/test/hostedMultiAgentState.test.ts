import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/types';
import { HostedResponse } from '../src/internal/hostedMultiAgent/hostedResponse.js';
import { runLoopOutput } from '../src/internal/hostedMultiAgent/hostedItems.js';

// The hosted response's state between run loop turns: what is injected, and how a response that
// ended before the local outputs arrived is continued.
const call = (callId: string) => ({ type: 'function_call', call_id: callId, name: 'lookup', arguments: '{}', agent: { agent_name: '/root/a' } });
const callOutput = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: `out ${callId}` });
const created = (id: string) => ({ type: 'response.created', response: { id, status: 'in_progress', output: [] } });
const completed = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: { id, status: 'completed', output: [call('c1')], usage: { input_tokens: 4, output_tokens: 2, total_tokens: 6 }, ...extra },
});

function waitingFor(callId: string, requestData: Record<string, unknown> = { input: [{ role: 'user', content: 'hi' }] }): HostedResponse {
  const hosted = new HostedResponse(requestData);
  hosted.observe(created('resp_1'));
  hosted.observe({ type: 'response.output_item.done', item: call(callId) });
  expect(hosted.takeBoundary()).toMatchObject({ id: 'resp_1', output: [{ call_id: callId }], usage: undefined });
  return hosted;
}

describe('HostedResponse', () => {
  it('injects the awaited outputs into the open response, and nothing else', () => {
    const hosted = waitingFor('c1');
    expect(hosted.resumeFrame({ input: [callOutput('c0'), callOutput('c1')] })).toEqual({ type: 'response.inject', response_id: 'resp_1', input: [callOutput('c1')] });
    expect(hosted.injecting).toBe(true);
    hosted.observe({ type: 'response.inject.created', response_id: 'resp_1' });
    expect(hosted.injecting).toBe(false);
  });

  it('refuses to resume without every awaited output', () => {
    const hosted = waitingFor('c1');
    expect(() => hosted.resumeFrame({ input: [] })).toThrow(UserError);
  });

  it('continues a stored response that ended meanwhile by chaining to it', () => {
    const hosted = waitingFor('c1');
    hosted.observe(completed('resp_1'));
    const frame = hosted.resumeFrame({ model: 'm', input: [{ role: 'user', content: 'hi' }, callOutput('c1')], stream: true, multi_agent: { enabled: true } });
    expect(frame).toEqual({ type: 'response.create', model: 'm', input: [callOutput('c1')], previous_response_id: 'resp_1', multi_agent: { enabled: true } });
    expect(hosted.earlierUsages).toEqual([{ input_tokens: 4, output_tokens: 2, total_tokens: 6 }]);
    // Until the service acknowledges it, the same frame is what resumes (after a reconnect, say).
    expect(hosted.resumeFrame({ input: [] })).toBe(frame);
    hosted.observe(created('resp_2'));
    expect(hosted.responseId).toBe('resp_2');
  });

  it('continues an unstored response with the whole exchange, and a conversation without chaining', () => {
    const unstored = waitingFor('c1', { input: [{ role: 'user', content: 'hi' }], store: false, previous_response_id: 'resp_0' });
    unstored.observe(completed('resp_1', { store: false }));
    expect(unstored.resumeFrame({ input: [callOutput('c1')], store: false })).toMatchObject({
      input: [{ role: 'user', content: 'hi' }, call('c1'), callOutput('c1')],
      previous_response_id: 'resp_0',
    });

    const inConversation = waitingFor('c1');
    inConversation.observe(completed('resp_1'));
    const frame = inConversation.resumeFrame({ input: [callOutput('c1')], conversation: 'conv_1', previous_response_id: 'resp_x' });
    expect(frame).toMatchObject({ conversation: 'conv_1', input: [callOutput('c1')] });
    expect(frame).not.toHaveProperty('previous_response_id');
  });

  it('carries the outputs of an injection that came too late into the continuation', () => {
    const hosted = waitingFor('c1');
    hosted.resumeFrame({ input: [callOutput('c1')] });
    hosted.observe({ type: 'response.inject.failed', error: { code: 'response_already_completed' }, input: [callOutput('c1')] });
    hosted.observe(completed('resp_1'));
    expect(hosted.hasCarriedOutputs).toBe(true);
    expect(hosted.continuationFrame({ input: [] }, [])).toMatchObject({ type: 'response.create', input: [callOutput('c1')], previous_response_id: 'resp_1' });
  });

  it('fails on any other injection failure and on an error event', () => {
    const hosted = waitingFor('c1');
    hosted.resumeFrame({ input: [callOutput('c1')] });
    expect(() => hosted.observe({ type: 'response.inject.failed', error: { code: 'invalid_input' } })).toThrow('injection failed');
    expect(() => hosted.observe({ type: 'error', error: { message: 'boom' } })).toThrow('Hosted Multi-agent WebSocket response failed');
  });

  it('keeps calls handed out earlier out of the final output', () => {
    const hosted = waitingFor('c1');
    expect(hosted.finalResponse({ id: 'resp_1', output: [call('c1'), call('c2')] }).output).toEqual([call('c2')]);
  });
});

describe('runLoopOutput', () => {
  it('keeps calls and the root final answer, and drops collaboration items, subagent messages and root commentary', () => {
    const root = { type: 'message', phase: 'final_answer', agent: { agent_name: '/root' } };
    const items = [
      { type: 'multi_agent_call' },
      { type: 'multi_agent_call_output' },
      { type: 'agent_message' },
      { type: 'message', phase: 'final_answer', agent: { agent_name: '/root/sub' } },
      { type: 'message', phase: 'commentary', agent: { agent_name: '/root' } },
      call('c1'),
      root,
    ];
    expect(runLoopOutput(items)).toEqual([call('c1'), root]);
  });
});
