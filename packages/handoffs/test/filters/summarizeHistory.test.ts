import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, Usage, UserError, run } from '@baton/core';
import { ScriptedModel, assistantMessage, modelError } from '@baton/testing';
import { summarizeHistory } from '../../src/index.js';
import { captureHandoffData, inputOf, triageScenario } from '../helpers.js';

const TRANSCRIPT = [
  'user: I was charged twice',
  '[tool call] lookup_order({"id":7})',
  '[tool result] lookup_order: order 7: paid twice',
  'assistant: Let me pass you to billing.',
  '[tool call] transfer_to_Billing({})',
  '[tool result] transfer_to_Billing: {"assistant":"Billing"}',
].join('\n');

function summarizerWith(model: ScriptedModel, instructions?: Agent<{ customer: string }>['instructions']) {
  return new Agent<{ customer: string }>({ name: 'Summarizer', model, ...(instructions ? { instructions } : {}) });
}

describe('summarizeHistory', () => {
  it('replaces the history with one message holding the summarizer’s summary of the transcript', async () => {
    const summarizerModel = new ScriptedModel([
      { output: [assistantMessage('Customer paid order 7 twice.')], usage: new Usage({ inputTokens: 100, outputTokens: 10 }) },
    ]);
    const { triage, billingModel } = triageScenario({ filter: summarizeHistory(summarizerWith(summarizerModel)) });
    const result = await run(triage, 'I was charged twice', { context: { customer: 'c-1' } });

    const summarizerInput = inputOf(summarizerModel.firstCall);
    expect(summarizerInput).toHaveLength(1);
    const prompt = (summarizerInput[0] as { content: string }).content;
    expect(prompt).toMatch(/^Summarise the conversation below/);
    expect(prompt).toContain(`<conversation>\n${TRANSCRIPT}\n</conversation>`);
    expect(prompt).not.toContain('I should look the order up'); // reasoning is left out

    expect(inputOf(billingModel.firstCall)).toEqual([{ role: 'user', content: 'Summary of the conversation so far:\nCustomer paid order 7 twice.' }]);
    expect(result.input).toEqual([{ role: 'user', content: 'Summary of the conversation so far:\nCustomer paid order 7 twice.' }]);
    expect(result.newItems.map((item) => item.type)).toEqual(['message_output_item']);
    expect(result.finalOutput).toBe('Billing here: refund issued.');
    // the summarizer's tokens count towards the run
    expect(result.usage.inputTokens).toBe(100);
    expect(result.usage.requests).toBe(4);
  });

  it('runs the summarizer with the run’s context object', async () => {
    const seen: string[] = [];
    const model = new ScriptedModel([[assistantMessage('summary')]]);
    const summarizer = summarizerWith(model, (ctx) => {
      seen.push(ctx.context.customer);
      return 'Summarise.';
    });
    await summarizeHistory(summarizer)(await captureHandoffData('hi', { customer: 'c-9' }));
    expect(seen).toEqual(['c-9']);
  });

  it('uses the given prompt, role, formatter and runner', async () => {
    const runnerModel = new ScriptedModel([[assistantMessage('short summary')]]);
    const summarizer = new Agent({ name: 'Summarizer' }); // no model of its own: the runner provides it
    const filter = summarizeHistory(summarizer, {
      runner: new Runner({ model: runnerModel }),
      prompt: 'TL;DR please.',
      role: 'system',
      formatSummary: (summary) => `[context] ${summary}`,
    });
    const data = await captureHandoffData('hi');
    const filtered = await filter(data);
    expect((inputOf(runnerModel.firstCall)[0] as { content: string }).content).toMatch(/^TL;DR please\.\n\n<conversation>\nuser: hi\n/);
    expect(filtered).toEqual({ ...data, inputHistory: [{ role: 'system', content: '[context] short summary' }], preHandoffItems: [], newItems: [] });
  });

  it('renders media parts as markers, spoken audio as its transcript', async () => {
    const model = new ScriptedModel([[assistantMessage('summary')]]);
    const data = {
      inputHistory: [
        { role: 'user' as const, content: [{ type: 'audio' as const, audio: 'UklG', format: 'wav' }, { type: 'input_image' as const, image: 'https://x.test/a.png' }] },
        { type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'audio' as const, audio: 'UklG', transcript: 'Hello there' }] },
        { type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'image' as const, image: 'iVBO' }, { type: 'refusal' as const, refusal: 'no' }] },
      ],
      preHandoffItems: [],
      newItems: [],
    };
    await summarizeHistory(summarizerWith(model))(data as never);
    const prompt = (inputOf(model.firstCall)[0] as { content: string }).content;
    expect(prompt).toContain(['user: [audio] [image]', 'assistant: [audio] Hello there', 'assistant: [image][refusal] no'].join('\n'));
  });

  it('turns a structured summary into JSON', async () => {
    const model = new ScriptedModel([[assistantMessage('{"topic":"refund","orderId":"7"}')]]);
    const summarizer = new Agent({ name: 'S', model, outputType: z.object({ topic: z.string(), orderId: z.string() }) });
    const filtered = await summarizeHistory(summarizer, { formatSummary: (s) => s })(await captureHandoffData('hi'));
    expect(filtered.inputHistory).toEqual([{ role: 'user', content: '{"topic":"refund","orderId":"7"}' }]);
  });

  it('leaves an empty conversation alone without running the summarizer', async () => {
    const model = new ScriptedModel([]);
    const data = { inputHistory: [], preHandoffItems: [], newItems: [] };
    expect(await summarizeHistory(summarizerWith(model))(data)).toBe(data);
    expect(model.calls).toHaveLength(0);
  });

  it('fails the run with the summarizer’s error', async () => {
    const boom = new Error('summarizer model down');
    const summarizer = summarizerWith(new ScriptedModel([modelError(boom)]));
    const { triage, billingModel } = triageScenario({ filter: summarizeHistory(summarizer) });
    await expect(run(triage, 'hi', { context: { customer: 'x' } })).rejects.toBe(boom);
    expect(billingModel.calls).toHaveLength(0);
  });

  it.each([
    ['a summarizer that is not an Agent', () => summarizeHistory('agent' as never), /the summarizer must be an Agent, got string/],
    ['an unknown role', () => summarizeHistory(new Agent({ name: 'S' }), { role: 'assistant' as never }), /`role` must be 'user' or 'system'/],
    ['a prompt that is not a string', () => summarizeHistory(new Agent({ name: 'S' }), { prompt: 3 as never }), /`prompt` must be a string/],
    ['a runner without run()', () => summarizeHistory(new Agent({ name: 'S' }), { runner: {} as never }), /`runner` must be a Runner/],
  ])('rejects %s with UserError', (_label, make, message) => {
    expect(make).toThrow(UserError);
    expect(make).toThrow(message);
  });
});
