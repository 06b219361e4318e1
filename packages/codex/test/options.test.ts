import { describe, expect, it } from 'vitest';
import { Agent, Runner, RunContext, UserError } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';
import { codexTool } from '../src/index.js';
import { loadCodexSdk } from '../src/internal/loadCodexSdk.js';
import { fakeCodex } from './helpers.js';

const task = (text: string) => JSON.stringify({ inputs: [{ type: 'text', text }] });

describe('codexTool() definition', () => {
  it('is a strict function tool named in the codex namespace', () => {
    expect(codexTool().name).toBe('codex');
    expect(codexTool({ name: 'engineer' }).name).toBe('codex_engineer');
    expect(codexTool({ name: 'codex_reviewer' }).name).toBe('codex_reviewer');
    expect(codexTool({ name: 'code reviewer' }).name).toBe('codex_code_reviewer');
    expect(() => codexTool({ name: '  ' })).toThrow(UserError);
    const tool = codexTool();
    expect(tool.strict).toBe(true);
    expect(Object.keys(tool.parameters.properties)).toEqual(['inputs', 'threadId']);
    expect(tool.parameters.required).toEqual(['inputs', 'threadId']);
    expect(Object.keys(codexTool({ useRunContextThreadId: true }).parameters.properties)).toEqual(['inputs']);
  });

  it('refuses an empty task before Codex starts: the model is told the call failed (arguments failing the schema, as the reference answers them)', async () => {
    const { codex, invocations } = fakeCodex();
    await expect(codexTool({ codex }).invoke(new RunContext(), JSON.stringify({ inputs: [], threadId: null }))).resolves.toBe(
      'An error occurred while running the tool. Please try again.',
    );
    expect(invocations()).toEqual([]);
  });

  it('two Codex tools of one name on an agent are refused when the agent is made', () => {
    expect(() => new Agent({ name: 'Twins', tools: [codexTool(), codexTool()] })).toThrow(/duplicate tool name "codex"/);
    expect(new Agent({ name: 'Pair', tools: [codexTool(), codexTool({ name: 'reviewer' })] }).tools).toHaveLength(2);
  });

  it('says what to install when the Codex SDK is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package '@openai/codex-sdk' imported from x"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadCodexSdk(() => Promise.reject(missing))).rejects.toThrow('npm install @openai/codex-sdk');
    const other = Object.assign(new Error("Cannot find package 'left-pad'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadCodexSdk(() => Promise.reject(other))).rejects.toBe(other);
  });
});

describe('useRunContextThreadId', () => {
  it('keeps the thread id in the run context, and the next run sharing it continues the thread', async () => {
    const { codex, invocations } = fakeCodex({ FAKE_CODEX_THREAD_ID: 'thread_ctx' });
    const tool = codexTool({ codex, name: 'engineer', useRunContextThreadId: true });
    const context: { codexThreadId_engineer?: string } = {};
    const agent = () =>
      new Agent<typeof context>({
        name: 'Engineer',
        tools: [tool],
        model: new ScriptedModel([[functionCall('codex_engineer', { inputs: [{ type: 'text', text: 'work' }] })], [assistantMessage('ok')]]),
      });
    await new Runner().run(agent(), 'first', { context });
    expect(context.codexThreadId_engineer).toBe('thread_ctx');
    await new Runner().run(agent(), 'second', { context });
    expect(invocations().map((call) => call.argv.slice(2))).toEqual([[], ['resume', 'thread_ctx']]);
  });

  it('reads and writes a Map context under a custom key', async () => {
    const { codex, invocations } = fakeCodex();
    const context = new Map<string, string>([['myThread', 'thread_in_map']]);
    const tool = codexTool({ codex, useRunContextThreadId: true, runContextThreadIdKey: 'myThread' });
    await tool.invoke(new RunContext(context), task('go'));
    expect(invocations()[0]?.argv.slice(2)).toEqual(['resume', 'thread_in_map']);
    expect(context.get('myThread')).toBe('thread_in_map');
  });

  it('needs a context it can write to', async () => {
    const { codex, invocations } = fakeCodex();
    const tool = codexTool({ codex, useRunContextThreadId: true });
    const frozen = new RunContext(Object.freeze({}));
    await expect(tool.invoke(frozen, task('go'))).resolves.toBe('An error occurred while running the tool. Please try again.');
    const context = { codexThreadId: 42 };
    await expect(tool.invoke(new RunContext(context), task('go'))).resolves.toBe('An error occurred while running the tool. Please try again.');
    expect(invocations()).toEqual([]);
  });
});

describe('outputSchema', () => {
  it('turns a descriptor into the JSON schema every turn gets', async () => {
    const { codex, invocations } = fakeCodex();
    const tool = codexTool({
      codex,
      outputSchema: {
        title: 'Summary',
        properties: [
          { name: 'summary', description: 'One sentence', schema: { type: 'string' } },
          { name: 'files', schema: { type: 'array', items: { type: 'string' } } },
        ],
        required: ['summary'],
      },
    });
    const output = await tool.invoke(new RunContext(), task('sum up'));
    expect(output).toMatchObject({ response: JSON.stringify({ summary: 'done: sum up' }) });
    expect(invocations()[0]?.outputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { summary: { type: 'string', description: 'One sentence' }, files: { type: 'array', items: { type: 'string' } } },
      required: ['summary'],
      title: 'Summary',
    });
  });

  it('takes a zod object or a closed JSON object schema, and refuses an open one or a bad descriptor', async () => {
    const { codex, invocations } = fakeCodex();
    await codexTool({ codex, outputSchema: z.object({ summary: z.string(), score: z.number().optional() }) }).invoke(new RunContext(), task('a'));
    expect(invocations()[0]?.outputSchema).toMatchObject({
      type: 'object',
      properties: { summary: { type: 'string' }, score: { type: 'number' } },
      required: ['summary'],
      additionalProperties: false,
    });
    const closed = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    await codexTool({ codex, outputSchema: closed }).invoke(new RunContext(), task('b'));
    expect(invocations()[1]?.outputSchema).toEqual(closed);

    expect(() => codexTool({ outputSchema: { type: 'object', properties: {} } })).toThrow(/additionalProperties/);
    expect(() => codexTool({ outputSchema: { properties: [{ name: 'a', schema: { type: 'string' } }], required: ['b'] } })).toThrow(/requires "b"/);
    expect(() =>
      codexTool({ outputSchema: { properties: [{ name: 'a', schema: { type: 'string' } }, { name: 'a', schema: { type: 'number' } }] } }),
    ).toThrow(/"a" twice/);
  });
});
