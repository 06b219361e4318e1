import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, RunContext, RunState, Runner, run, tool, type RunResult } from '../src/index.js';
import { inputOf } from './helpers.js';

describe('an agent tool’s nested run', () => {
  it('tells the output extractor which call it answered; a later run from the same state forgets it', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('inner answer')]]);
    const inner = new Agent({ name: 'Inner', model: innerModel });
    const seen: Array<RunResult<any, any>['agentToolInvocation']> = [];
    const innerTool = inner.asTool({
      toolName: 'ask_inner',
      customOutputExtractor: (result) => {
        seen.push(result.agentToolInvocation);
        // Runtime metadata only: the nested state never writes it.
        expect(JSON.stringify(result.state.toJSON())).not.toContain('agentToolInvocation');
        return `extracted: ${String(result.finalOutput)}`;
      },
    });
    const outer = new Agent({
      name: 'Outer',
      model: new ScriptedModel([[functionCall('ask_inner', { input: 'hi' }, { callId: 'call_7' })], [assistantMessage('done')]]),
      tools: [innerTool],
    });
    await run(outer, 'go');
    expect(seen).toEqual([{ toolName: 'ask_inner', toolCallId: 'call_7', toolArguments: '{"input":"hi"}' }]);

    const state = new RunState(new RunContext(), 'again', new Agent({ name: 'Solo', model: new ScriptedModel([[assistantMessage('ok')]]) }), 3);
    state._agentToolInvocation = { toolName: 'stale', toolCallId: 'old', toolArguments: '{}' };
    const result = await new Runner().run(state.currentAgent, state);
    expect(result.agentToolInvocation).toBeUndefined();
  });

  it('inherits the calling run’s model, provider-safe settings and policies, not its guardrails or tool choice', async () => {
    // One model for both agents (the runner's): the outer call, the nested call, the outer answer.
    const both = new ScriptedModel([[functionCall('Inner', { input: 'x' })], [assistantMessage('inner')], [assistantMessage('done')]]);
    const tripped: string[] = [];
    const runner = new Runner({
      model: both,
      modelSettings: { temperature: 0.3, toolChoice: 'required' },
      inputGuardrails: [{ name: 'outer only', execute: async ({ agent }) => (tripped.push(agent.name), { tripwireTriggered: false, outputInfo: null }) }],
    });
    const outer = new Agent({ name: 'Outer', tools: [new Agent({ name: 'Inner' }).asTool({})] });
    const result = await runner.run(outer, 'go');
    expect(result.finalOutput).toBe('done');
    const nestedCall = both.calls[1]!;
    expect(nestedCall.request.modelSettings.temperature).toBe(0.3);
    expect(nestedCall.request.modelSettings.toolChoice).toBeUndefined();
    expect(tripped).toEqual(['Outer']);
  });

  it('inherits the calling run’s configuration through a spread copy of the details a tool passes on, whose keys stay the reference’s', async () => {
    // One model for all (the runner's): relay's call, the nested call, the outer answer. Without the
    // run's scope on the copy, the inner agent would fall back to the default (OpenAI) provider.
    const model = new ScriptedModel([[functionCall('relay', {})], [assistantMessage('inner')], [assistantMessage('done')]]);
    const inner = new Agent({ name: 'Inner' }).asTool({});
    const seenKeys: string[][] = [];
    const relay = tool({
      name: 'relay',
      description: 'asks Inner',
      parameters: z.object({}),
      execute: async (_input, runContext, details) => {
        seenKeys.push(Object.keys(details!));
        return inner.invoke(runContext!, JSON.stringify({ input: 'x' }), { ...details! });
      },
    });
    const result = await new Runner({ model }).run(new Agent({ name: 'Outer', tools: [relay] }), 'go');
    expect(result.finalOutput).toBe('done');
    expect(model.calls).toHaveLength(3);
    expect(inputOf(model.calls[1]!)).toContainEqual(expect.objectContaining({ role: 'user', content: 'x' }));
    expect(seenKeys).toEqual([['toolCall', 'emit', 'signal', 'runId']]);
  });

  it('merges the tool’s own model settings over the inherited ones, nested objects key by key', async () => {
    const model = new ScriptedModel([[functionCall('Inner', { input: 'x' })], [assistantMessage('inner')], [assistantMessage('done')]]);
    const inner = new Agent({ name: 'Inner' });
    const tool = inner.asTool({ runConfig: { modelSettings: { maxTokens: 5, reasoning: { summary: 'auto' } } } });
    const outer = new Agent({ name: 'Outer', tools: [tool] });
    await new Runner({ model, modelSettings: { reasoning: { effort: 'low' }, temperature: 0.1 } }).run(outer, 'go');
    expect(model.calls[1]!.request.modelSettings).toMatchObject({ maxTokens: 5, temperature: 0.1, reasoning: { effort: 'low', summary: 'auto' } });
  });

  it('hands a structured call’s arguments to the nested run as toolInput on a fork of the context, with a field summary', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('translated')]]);
    const inner = new Agent({ name: 'Translator', model: innerModel });
    const tool = inner.asTool({
      toolName: 'translate',
      parameters: z.object({ text: z.string().describe('Text to translate'), target: z.string() }),
    });
    const context = new RunContext({ tenant: 'a' });
    await tool.invoke(context, JSON.stringify({ text: 'hola', target: 'en' }));
    const text = (inputOf(innerModel.calls[0]) as Array<{ content: string }>)[0]!.content;
    expect(text).toContain('You are being called as a tool.');
    expect(text).toContain('- text (string, required) - Text to translate');
    expect(text).toContain('"target": "en"');
    expect(context.toolInput).toBeUndefined();

    const plainModel = new ScriptedModel([[assistantMessage('ok')]]);
    const plain = new Agent({ name: 'Plain', model: plainModel }).asTool({ parameters: z.object({ a: z.number() }) });
    await plain.invoke(new RunContext(), '{"a":1}');
    expect(inputOf(plainModel.calls[0])).toEqual([{ type: 'message', role: 'user', content: '{"a":1}' }]);
  });

  it('includes the JSON schema in the default input when includeInputSchema is set', async () => {
    const innerModel = new ScriptedModel([[assistantMessage('ok')]]);
    const tool = new Agent({ name: 'Schema', model: innerModel }).asTool({ includeInputSchema: true, parameters: z.object({ a: z.number() }) });
    await tool.invoke(new RunContext(), '{"a":1}');
    const text = (inputOf(innerModel.calls[0]) as Array<{ content: string }>)[0]!.content;
    expect(text).toContain('## Input JSON Schema:');
    expect(text).toContain('"properties"');
  });
});

describe('agent.outputSchemaName', () => {
  it('names the output schema as the reference does', () => {
    expect(new Agent({ name: 'a' }).outputSchemaName).toBe('text');
    expect(new Agent({ name: 'a', outputType: z.object({ x: z.string() }) }).outputSchemaName).toBe('ZodOutput');
    const json = { type: 'json_schema' as const, name: 'Foo', strict: true, schema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false as const } };
    expect(new Agent({ name: 'a', outputType: json }).outputSchemaName).toBe('Foo');
  });
});
