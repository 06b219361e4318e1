import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as baton from '@baton/agents';
import * as reference from '@openai/agents';
import * as referenceTesting from '@openai/agents/testing';
import { join } from 'node:path';
import { FakeOpenAIServer, fakeItems, fakeText, fakeToolCalls } from '@baton/testing';
import { onBoth, outcomeOf, type SdkUnderTest } from './sdks.js';

// tool({ customDataExtractor }) and RunToolCallOutputItem.customData: what the extractor is given,
// what the item keeps, and how a bad answer ends the run. The same program on both SDKs.

interface Case {
  readonly label: string;
  readonly extract: (context: { input: unknown; output: unknown }) => unknown;
  readonly execute?: (input: { q: string }) => unknown;
  readonly inputGuardrail?: boolean;
  readonly outputGuardrail?: boolean;
  readonly stream?: boolean;
}

class Point {
  x = 1;
}

const cases: Case[] = [
  { label: 'data from the input and the output', extract: ({ input, output }) => ({ q: (input as { q: string }).q, output, nested: { list: [1, 'two', null, true] } }) },
  { label: 'a structured tool result', extract: ({ output }) => ({ output }), execute: ({ q }) => ({ found: q, n: 2 }) },
  { label: 'null', extract: () => null },
  { label: 'undefined', extract: () => undefined },
  { label: 'an empty object', extract: () => ({}) },
  { label: 'async', extract: async () => ({ late: true }) },
  { label: 'streamed', extract: () => ({ streamed: 1 }), stream: true },
  {
    label: 'the default error function answer',
    extract: ({ input, output }) => ({ input: input ?? 'none', output }),
    execute: () => {
      throw new Error('down');
    },
  },
  { label: 'an output guardrail replacement', extract: ({ output }) => ({ output }), outputGuardrail: true },
  { label: 'an input guardrail rejection', extract: ({ input, output }) => ({ input: input ?? 'none', output }), inputGuardrail: true },
  { label: 'a string (refused)', extract: () => 'text' },
  { label: 'an array (refused)', extract: () => [1] },
  { label: 'a class instance (refused)', extract: () => new Point() },
  { label: 'a symbol key (refused)', extract: () => ({ [Symbol('s')]: 1 }) },
  { label: 'undefined values (dropped, as JSON does)', extract: () => ({ a: undefined, b: [undefined, 1] }) },
  { label: 'only an undefined value', extract: () => ({ a: undefined }) },
  { label: 'NaN (refused)', extract: () => ({ a: Number.NaN }) },
  { label: 'a bigint (refused)', extract: () => ({ a: 1n }) },
  { label: 'a nested Date (refused)', extract: () => ({ when: new Date(0) }) },
  {
    label: 'a throw',
    extract: () => {
      throw new Error('extractor broke');
    },
  },
];

async function program({ sdk, testing }: SdkUnderTest, c: Case) {
  const contexts: unknown[] = [];
  const ended: string[] = [];
  const lookup = sdk.tool({
    name: 'lookup',
    description: 'looks up',
    parameters: z.object({ q: z.string() }),
    execute: (c.execute ?? (({ q }: { q: string }) => `found ${q}`)) as never,
    customDataExtractor: (context) => {
      const { input, output, toolCall, rawItem } = context;
      contexts.push({ input, output, toolCall, rawItem, tool: context.tool.name, hasRunContext: context.runContext !== undefined });
      return c.extract({ input, output }) as never;
    },
    ...(c.inputGuardrail ? { inputGuardrails: [{ type: 'tool_input', name: 'stop', run: async () => ({ behavior: { type: 'rejectContent', message: 'not allowed' }, outputInfo: null }) }] } : {}),
    ...(c.outputGuardrail ? { outputGuardrails: [{ type: 'tool_output', name: 'hide', run: async () => ({ behavior: { type: 'rejectContent', message: 'withheld' }, outputInfo: null }) }] } : {}),
  } as never);
  const model = new testing.ScriptedModel([[testing.functionCall('lookup', { q: 'oak' }, { callId: 'c1' })], [testing.assistantMessage('done')]] as never);
  const agent = new sdk.Agent({ name: 'A', model, tools: [lookup] } as never);
  (agent as unknown as { on: (event: string, listener: (...args: unknown[]) => void) => void }).on('agent_tool_end', (_context, _tool, result) => void ended.push(String(result)));
  const streamed: unknown[] = [];
  const outcome = await outcomeOf(
    (async () => {
      if (!c.stream) return (await sdk.run(agent, 'go')).newItems;
      const result = await sdk.run(agent, 'go', { stream: true });
      for await (const event of result) {
        if (event.type === 'run_item_stream_event' && event.name === 'tool_output') streamed.push((event.item as { customData?: unknown }).customData);
      }
      await result.completed;
      return result.newItems;
    })(),
  );
  const outputs = outcome.ok ? outcome.value.filter((item) => item.type === 'tool_call_output_item') : [];
  return {
    outcome: outcome.ok ? 'ok' : (outcome.error as Error).message,
    contexts,
    ended,
    customData: outputs.map((item) => (item as { customData?: unknown }).customData),
    json: outputs.map((item) => JSON.parse(JSON.stringify(item.toJSON())).customData),
    streamed,
  };
}

describe('customDataExtractor (same on both SDKs)', () => {
  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const both = await onBoth((under) => program(under, c));
    expect(both.baton).toEqual(both.reference);
    expect(both.reference.contexts).toHaveLength(1);
  });
});

describe('a state the reference wrote with custom data resumes on Baton with it', () => {
  it('keeps the custom data of the tool outputs', async () => {
    const graph = <S extends typeof reference>(sdk: S, testing: typeof referenceTesting, script: unknown[][]) => {
      const lookup = sdk.tool({ name: 'lookup', description: 'l', parameters: z.object({ q: z.string() }), execute: async ({ q }) => `found ${q}`, customDataExtractor: ({ input }) => ({ q: (input as { q: string }).q, source: 'ledger' }) });
      const pay = sdk.tool({ name: 'pay', description: 'p', parameters: z.object({}), needsApproval: true, execute: async () => 'paid' });
      return new sdk.Agent({ name: 'A', model: new testing.ScriptedModel(script as never), tools: [lookup, pay] });
    };
    const paused = await reference.run(
      graph(reference, referenceTesting, [[referenceTesting.functionCall('lookup', { q: 'oak' }, { callId: 'c1' })], [referenceTesting.functionCall('pay', {}, { callId: 'c2' })]]),
      'go',
    );
    const stored = paused.state.toString();
    expect(JSON.parse(stored).generatedItems.find((item: { type: string }) => item.type === 'tool_call_output_item').customData).toEqual({ q: 'oak', source: 'ledger' });

    const agent = graph(baton as unknown as typeof reference, (await import('@baton/agents/testing')) as unknown as typeof referenceTesting, [[baton.assistantMessage?.('done') ?? { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }]]);
    const state = await baton.RunState.fromString(agent as never, stored);
    const outputs = state.generatedItems.filter((item) => item.type === 'tool_call_output_item');
    expect(outputs.map((item) => (item as { customData?: unknown }).customData)).toEqual([{ q: 'oak', source: 'ledger' }]);
    state.approve(state.getInterruptions()[0]!);
    const resumed = await baton.run(agent as never, state);
    expect(resumed.finalOutput).toBe('done');
    expect(JSON.parse(resumed.state.toString()).generatedItems.filter((item: { customData?: unknown }) => item.customData !== undefined).map((item: { customData: unknown }) => item.customData)).toEqual([
      { q: 'oak', source: 'ledger' },
    ]);
  });
});

// The computer and apply-patch tools, over the fake Responses API.
const patchCall = { id: 'ap_1', type: 'apply_patch_call', call_id: 'call_ap', status: 'completed', operation: { type: 'create_file', path: 'a.txt', diff: '+hello' } };
const computerCall = { id: 'cu_1', type: 'computer_call', call_id: 'call_cu', status: 'completed', action: { type: 'click', x: 10, y: 20, button: 'left' }, pending_safety_checks: [] };

function localProgram(kind: 'computer' | 'apply_patch', extract: (context: Record<string, unknown>) => unknown) {
  return async ({ sdk }: SdkUnderTest) => {
    const server = await FakeOpenAIServer.start({ turns: [fakeItems([kind === 'computer' ? computerCall : patchCall]), fakeText('done')] });
    try {
      const contexts: unknown[] = [];
      const ended: string[] = [];
      const customDataExtractor = (context: Record<string, unknown>) => {
        const { runContext, tool, ...rest } = context;
        contexts.push({ ...rest, tool: (tool as { name: string }).name, hasRunContext: runContext !== undefined });
        return extract(context) as never;
      };
      const editor = { createFile: async (op: { path: string }) => ({ status: 'completed' as const, output: `created ${op.path}` }), updateFile: async () => ({}), deleteFile: async () => ({}) };
      const computer = {
        environment: 'browser' as const,
        dimensions: [800, 600] as [number, number],
        screenshot: async () => 'iVBORw0KGgo=',
        click: async () => {},
        doubleClick: async () => {},
        scroll: async () => {},
        type: async () => {},
        wait: async () => {},
        move: async () => {},
        keypress: async () => {},
        drag: async () => {},
      };
      const tool = kind === 'computer' ? sdk.computerTool({ computer, customDataExtractor } as never) : sdk.applyPatchTool({ editor, customDataExtractor } as never);
      const agent = new sdk.Agent({ name: 'Dev', model: 'computer-use-preview', tools: [tool] });
      (agent as unknown as { on: (event: string, listener: (...args: unknown[]) => void) => void }).on('agent_tool_end', (_context, _tool, result) => void ended.push(String(result).slice(0, 40)));
      const provider = new sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
      const outcome = await outcomeOf(new sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never).run(agent, 'go'));
      const outputs = outcome.ok ? outcome.value.newItems.filter((item) => item.type === 'tool_call_output_item') : [];
      return {
        outcome: outcome.ok ? 'ok' : `${outcome.name}: ${(outcome.error as Error).message}`,
        contexts,
        ended,
        customData: outputs.map((item) => (item as { customData?: unknown }).customData),
      };
    } finally {
      await server.close();
    }
  };
}

describe('computer and apply-patch customDataExtractor (same on both SDKs)', () => {
  const localCases: Array<[string, (context: Record<string, unknown>) => unknown]> = [
    ['data from the context', (context) => ({ output: String(context.output).slice(0, 30), status: context.status ?? null })],
    ['null', () => null],
    ['a bigint (refused)', () => ({ a: 1n })],
    [
      'a throw',
      () => {
        throw new Error('extractor broke');
      },
    ],
  ];
  for (const kind of ['computer', 'apply_patch'] as const) {
    it.each(localCases)(`${kind}: %s`, async (_label, extract) => {
      const both = await onBoth(localProgram(kind, extract));
      expect(both.baton).toEqual(both.reference);
      expect(both.reference.contexts).toHaveLength(1);
    });
  }
});

// An MCP server's customDataExtractor (fixtures/mcp/resultMetaServer.mjs): both SDKs get a Baton `MCPServerStdio`.
const metaServer = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'resultMetaServer.mjs');

async function mcpProgram({ sdk }: SdkUnderTest, call: [string, Record<string, unknown>], serverOptions: Record<string, unknown>) {
  const contexts: unknown[] = [];
  const server = new baton.MCPServerStdio({
    name: 'inventory',
    command: process.execPath,
    args: [metaServer],
    stderr: 'ignore',
    ...serverOptions,
    customDataExtractor: (context) => {
      const { runContext, ...rest } = context;
      contexts.push({ ...rest, hasRunContext: runContext !== undefined });
      return { requestId: (context.resultMeta as { requestId?: string } | undefined)?.requestId ?? null, isError: context.isError ?? false };
    },
  });
  const fake = await FakeOpenAIServer.start({ turns: [fakeToolCalls([{ name: call[0], arguments: call[1], callId: 'call_1' }]), fakeText('done')] });
  try {
    await server.connect();
    const provider = new sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: fake.baseURL, useResponses: true });
    const agent = new sdk.Agent({ name: 'Clerk', mcpServers: [server as never] });
    const result = await new sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never).run(agent, 'go');
    const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
    return {
      contexts,
      customData: outputs.map((item) => (item as { customData?: unknown }).customData),
      // Never sent to the model.
      sentToModel: JSON.stringify(fake.requests.at(-1)!.body).includes('req-'),
    };
  } finally {
    await fake.close();
    await server.close();
  }
}

describe('an MCP server customDataExtractor (same on both SDKs)', () => {
  it.each<[string, [string, Record<string, unknown>], Record<string, unknown>]>([
    ['the result meta and structured content', ['stock', { sku: 'A-1' }], {}],
    ['with useStructuredContent', ['stock', { sku: 'A-1' }], { useStructuredContent: true }],
    ['an error result', ['broken', {}], {}],
  ])('%s', async (_label, call, serverOptions) => {
    const both = await onBoth((under) => mcpProgram(under, call, serverOptions));
    expect(both.baton).toEqual(both.reference);
    expect(both.reference.contexts).toHaveLength(1);
    expect(both.reference.sentToModel).toBe(false);
  });
});
