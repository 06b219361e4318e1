import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import type { AgentInputItem } from '@baton/types';
import { Agent, run, tool } from '../src/index.js';

/** Runs `inner` as a tool of an outer agent and returns the text the outer model received for it. */
async function answerOf(inner: Agent<any, any>): Promise<unknown> {
  const outerModel = new ScriptedModel([[functionCall('inner', { input: 'go' }, { callId: 'c1' })], [assistantMessage('done')]]);
  await run(new Agent({ name: 'Outer', model: outerModel, tools: [inner.asTool({ toolName: 'inner', toolDescription: '' })] }), 'go');
  const input = outerModel.calls[1]!.request.input as AgentInputItem[];
  const result = input.find((item) => item.type === 'function_call_result') as { output: unknown };
  return (result.output as { text?: string }).text ?? result.output;
}

describe('what a nested agent tool answers', () => {
  it('structured output: the JSON text the model wrote, as written', async () => {
    const model = new ScriptedModel([[assistantMessage('{ "answer": "42" }')]]);
    const inner = new Agent({ name: 'Inner', model, outputType: z.object({ answer: z.string() }) });
    expect(await answerOf(inner)).toBe('{ "answer": "42" }');
  });

  it('a response of reasoning and messages: every message’s text, joined', async () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', content: [] } as unknown as AgentInputItem;
    const model = new ScriptedModel([[reasoning as never, assistantMessage('first '), assistantMessage('second')]]);
    expect(await answerOf(new Agent({ name: 'Inner', model }))).toBe('first second');
  });

  it('plain text: the final answer', async () => {
    const model = new ScriptedModel([[assistantMessage('all good')]]);
    expect(await answerOf(new Agent({ name: 'Inner', model }))).toBe('all good');
  });

  it('a final output from an error handler: that output, not the last response’s text', async () => {
    const noop = tool({ name: 'noop', description: '', parameters: z.object({}), execute: () => 'ok' });
    const model = new ScriptedModel([[functionCall('noop', {}), assistantMessage('thinking out loud')], [assistantMessage('never reached')]]);
    const inner = new Agent({ name: 'Inner', model, tools: [noop] });
    const outerModel = new ScriptedModel([[functionCall('inner', { input: 'go' }, { callId: 'c1' })], [assistantMessage('done')]]);
    const innerTool = inner.asTool({
      toolName: 'inner',
      toolDescription: '',
      runOptions: { maxTurns: 1, errorHandlers: { maxTurns: () => ({ finalOutput: 'handled summary' }) } },
    });
    await run(new Agent({ name: 'Outer', model: outerModel, tools: [innerTool] }), 'go');
    const input = outerModel.calls[1]!.request.input as AgentInputItem[];
    const result = input.find((item) => item.type === 'function_call_result') as { output: { text?: string } | string };
    expect(typeof result.output === 'string' ? result.output : result.output.text).toBe('handled summary');
  });
});
