import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, aborted, assistantMessage, deferred, functionCall, modelResponder } from '@baton/testing';
import { Agent, ModelBehaviorError, RunMessageOutputItem, RunState, Usage, UserError, run, tool, type ModelRequest, type ModelResponse } from '../src/index.js';

const echo = tool({ name: 'echo', description: '', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
const response = (id: string, output: ModelResponse['output']): ModelResponse => ({ output, usage: new Usage({ requests: 1 }), responseId: id });

describe('a conversation the provider keeps', () => {
  it('chains previousResponseId and sends only what the server has not seen', async () => {
    const model = new ScriptedModel([response('resp_1', [functionCall('echo', { text: 'hi' }, { callId: 'c1' })]), response('resp_2', [assistantMessage('done')])]);
    const result = await run(new Agent({ name: 'A', model, tools: [echo] }), 'go', { previousResponseId: 'resp_0' });
    expect(result.finalOutput).toBe('done');
    const [first, second] = model.calls;
    expect(first?.request.previousResponseId).toBe('resp_0');
    expect(first?.request.input).toEqual([{ type: 'message', role: 'user', content: 'go' }]);
    expect(second?.request.previousResponseId).toBe('resp_1');
    expect(second?.request.input).toEqual([
      { type: 'function_call_result', callId: 'c1', name: 'echo', status: 'completed', output: { type: 'text', text: 'hi' } },
    ]);
  });

  it('passes conversationId on every request and answers ignored handoff calls on the server', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([response('resp_3', [assistantMessage('billing here')])]) });
    const refunds = new Agent({ name: 'Refunds', model: new ScriptedModel([]) });
    const triageModel = new ScriptedModel([
      response('resp_1', [functionCall('transfer_to_Billing', {}, { callId: 'h1' }), functionCall('transfer_to_Refunds', {}, { callId: 'h2' })]),
    ]);
    const triage = new Agent({ name: 'Triage', model: triageModel, handoffs: [billing, refunds] });
    const result = await run(triage, 'help', { conversationId: 'conv_1' });
    expect(result.finalOutput).toBe('billing here');
    const billingCall = (billing.model as ScriptedModel).calls[0]!;
    expect(billingCall.request.conversationId).toBe('conv_1');
    const sentIds = (billingCall.request.input as Array<{ callId?: string; output?: unknown }>).map((item) => [item.callId, item.output]);
    expect(sentIds).toEqual([
      ['h1', { type: 'text', text: '{"assistant":"Billing"}' }],
      ['h2', { type: 'text', text: 'Multiple handoffs detected, ignoring this one.' }],
    ]);
    expect(JSON.stringify(result.history)).not.toContain('h2');
  });

  it('chained by conversation id, no request sends a response id beside it (the API takes one or the other)', async () => {
    const model = new ScriptedModel([response('resp_1', [functionCall('echo', { text: 'hi' }, { callId: 'c1' })]), response('resp_2', [assistantMessage('done')])]);
    await run(new Agent({ name: 'A', model, tools: [echo] }), 'go', { conversationId: 'conv_1' });
    expect(model.calls.map((call) => [call.request.conversationId, call.request.previousResponseId])).toEqual([
      ['conv_1', undefined],
      ['conv_1', undefined],
    ]);
  });

  it.each([
    ['conversationId', { conversationId: 'conv_1' }],
    ['previousResponseId', { previousResponseId: 'resp_0' }],
  ].flatMap(([label, chain]) => [
    [label, chain, 'the live state'],
    [label, chain, 'its state read back from JSON'],
  ]) as Array<[string, { conversationId?: string; previousResponseId?: string }, string]>)(
    '%s: a model call cancelled before its response is sent again as it was when the run resumes from %s (the handoff answers, the ignored one’s too)',
    async (_label, chain, from) => {
    const asked = deferred();
    const billingModel = new ScriptedModel([
      modelResponder(async (call) => {
        asked.resolve();
        await aborted(call.request.signal);
        throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      }),
      response('resp_3', [assistantMessage('billing here')]),
    ]);
    const billing = new Agent({ name: 'Billing', model: billingModel });
    const refunds = new Agent({ name: 'Refunds', model: new ScriptedModel([]) });
    const triageModel = new ScriptedModel([
      response('resp_1', [functionCall('transfer_to_Billing', {}, { callId: 'h1' }), functionCall('transfer_to_Refunds', {}, { callId: 'h2' })]),
    ]);
    const triage = new Agent({ name: 'Triage', model: triageModel, handoffs: [billing, refunds] });
    const first = await run(triage, 'help', { ...chain, stream: true });
    const reading = (async () => {
      for await (const _event of first);
    })();
    await asked.promise;
    first.cancel();
    await reading;
    await first.completed;
    expect(first.cancelled).toBe(true);
    // Read back, the state no longer carries what it owed the server: the ignored call's answer is owed again from the response.
    const state = from === 'the live state' ? first.state : await RunState.fromString(triage, first.state.toString());
    const resumed = await run(triage, state, chain);
    expect(resumed.finalOutput).toBe('billing here');
    const [cancelled, again] = billingModel.calls;
    const sent = (request: ModelRequest) => (request.input as Array<{ type: string; callId?: string }>).map((item) => `${item.type}:${item.callId}`);
    expect(sent(cancelled!.request)).toEqual(['function_call_result:h1', 'function_call_result:h2']);
    expect(sent(again!.request)).toEqual(sent(cancelled!.request));
    expect(again!.request.previousResponseId).toBe(chain.previousResponseId === undefined ? undefined : 'resp_1');
    expect(again!.request.conversationId).toBe(chain.conversationId);
  },
  );

  it('takes both options at once (as the reference: both reach the model), and rejects handoff input filters with a server-kept conversation', async () => {
    const both = new ScriptedModel([[assistantMessage('ok')]]);
    await run(new Agent({ name: 'A', model: both }), 'x', { previousResponseId: 'a', conversationId: 'b' });
    expect(both.calls[0]!.request).toMatchObject({ previousResponseId: 'a', conversationId: 'b' });
    const target = new Agent({ name: 'B', model: new ScriptedModel([]) });
    const model = new ScriptedModel([[functionCall('transfer_to_B', {})]]);
    const filtered = await run(new Agent({ name: 'A', model, handoffs: [target] }), 'x', {
      previousResponseId: 'r0',
      handoffInputFilter: (data) => data,
    }).catch((e: unknown) => e);
    expect(filtered).toBeInstanceOf(UserError);
    expect((filtered as Error).message).toContain('previousResponseId or conversationId');
  });

  it('a run resumed after approval sends only what the run made since the paused turn’s model output', async () => {
    const guarded = tool({ name: 'guarded', description: '', parameters: z.object({ text: z.string() }), needsApproval: true, execute: ({ text }) => `ok ${text}` });
    const model = new ScriptedModel([
      response('resp_1', [functionCall('echo', { text: 'free' }, { callId: 'c1' }), functionCall('guarded', { text: 'held' }, { callId: 'c2' })]),
      response('resp_2', [assistantMessage('done')]),
    ]);
    const agent = new Agent({ name: 'A', model, tools: [echo, guarded] });
    const paused = await run(agent, 'go', { conversationId: 'conv_1' });
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state, { conversationId: 'conv_1' });

    expect(resumed.finalOutput).toBe('done');
    const sent = model.calls[1]!.request.input as Array<{ type?: string; callId?: string }>;
    // The output the paused turn already made (c1) and the approved call's (c2); not the user input nor the calls.
    expect(sent.map((item) => [item.type, item.callId])).toEqual([
      ['function_call_result', 'c1'],
      ['function_call_result', 'c2'],
    ]);
  });

  it('a resumed run chained by response id continues from the last response it received, not the id it is given again', async () => {
    const guarded = tool({ name: 'guarded', description: '', parameters: z.object({ text: z.string() }), needsApproval: true, execute: ({ text }) => `ok ${text}` });
    const model = new ScriptedModel([response('resp_1', [functionCall('guarded', { text: 'held' }, { callId: 'c1' })]), response('resp_2', [assistantMessage('done')])]);
    const agent = new Agent({ name: 'A', model, tools: [guarded] });
    const paused = await run(agent, 'go', { previousResponseId: 'resp_0' });
    paused.state.approve(paused.interruptions[0]!);
    const resumed = await run(agent, paused.state, { previousResponseId: 'resp_0' });

    expect(resumed.finalOutput).toBe('done');
    expect(model.calls.map((call) => call.request.previousResponseId)).toEqual(['resp_0', 'resp_1']);
    expect((model.calls[1]!.request.input as Array<{ callId?: string }>).map((item) => item.callId)).toEqual(['c1']);
  });

  it('a resumed run sends an item added to the paused state by hand, which no response holds', async () => {
    const guarded = tool({ name: 'guarded', description: '', parameters: z.object({ text: z.string() }), needsApproval: true, execute: ({ text }) => `ok ${text}` });
    const model = new ScriptedModel([response('resp_1', [functionCall('guarded', { text: 'held' }, { callId: 'c1' })]), response('resp_2', [assistantMessage('done')])]);
    const agent = new Agent({ name: 'A', model, tools: [guarded] });
    const paused = await run(agent, 'go', { conversationId: 'conv_1' });
    paused.state._generatedItems.push(new RunMessageOutputItem(assistantMessage('a note'), agent));
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state, { conversationId: 'conv_1' });

    const sent = model.calls[1]!.request.input as Array<{ type?: string; callId?: string }>;
    expect(sent.map((item) => item.type)).toEqual(['message', 'function_call_result']);
  });

  it('fails the run when an ignored handoff call reuses the id of a call whose output is committed', async () => {
    const billing = new Agent({ name: 'Billing', model: new ScriptedModel([]) });
    const refunds = new Agent({ name: 'Refunds', model: new ScriptedModel([]) });
    const triageModel = new ScriptedModel([
      response('resp_1', [functionCall('echo', { text: 'warm up' }, { callId: 'c1' })]),
      response('resp_2', [functionCall('transfer_to_Billing', {}, { callId: 'h1' }), functionCall('transfer_to_Refunds', {}, { callId: 'c1' })]),
    ]);
    const triage = new Agent({ name: 'Triage', model: triageModel, tools: [echo], handoffs: [billing, refunds] });
    const failure = await run(triage, 'help', { previousResponseId: 'resp_0' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelBehaviorError);
    expect((failure as Error).message).toBe('Tool call ID c1 was reused for a different invocation after its output was committed.');
    expect((billing.model as ScriptedModel).calls).toHaveLength(0);
  });
});
