import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool, type Model } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { otlpTracingProcessor } from '../src/opentelemetry/index.js';

/**
 * Spans exported over OTLP/HTTP by the OpenTelemetry SDK's exporter, received by a local server
 * that decodes the OTLP JSON and rebuilds the span tree.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  resource: Record<string, unknown>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };

function decodeValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function decodeAttributes(list: { key: string; value: AnyValue }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, decodeValue(value)]));
}

async function otlpReceiver() {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      contentTypes.push(String(request.headers['content-type']));
      const payload = JSON.parse(body) as { resourceSpans: { resource: { attributes: any[] }; scopeSpans: { spans: any[] }[] }[] };
      for (const resourceSpans of payload.resourceSpans) {
        const resource = decodeAttributes(resourceSpans.resource.attributes);
        for (const scope of resourceSpans.scopeSpans) {
          for (const span of scope.spans) spans.push({ ...span, attributes: decodeAttributes(span.attributes), resource });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return { url, spans, contentTypes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A scripted model that says its name, as a provider's model does. */
function named(turns: ConstructorParameters<typeof ScriptedModel>[0], modelName: string): Model {
  const scripted = new ScriptedModel(turns);
  return { modelName, traceSpanType: 'generation', getResponse: (request) => scripted.getResponse(request), getStreamedResponse: (request) => scripted.getStreamedResponse(request) };
}

function tree(spans: readonly OtlpSpan[]): string[] {
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of spans.filter((s) => (s.parentSpanId || undefined) === parent)) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

afterEach(() => setTraceProcessors([]));

describe('export over OTLP/HTTP', () => {
  it('a run with a guardrail, a tool, a nested agent tool and a handoff: the span tree, GenAI attributes and errors', async () => {
    const receiver = await otlpReceiver();
    const processor = otlpTracingProcessor({ url: receiver.url, serviceName: 'support-bot' });
    setTracingDisabled(false);
    setTraceProcessors([processor]);
    try {
      const lookup = tool({ name: 'lookup', description: 'Find.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `found ${id}` });
      const helper = new Agent({ name: 'Helper', model: named([[assistantMessage('inner')]], 'gpt-small') });
      const specialist = new Agent({
        name: 'Specialist',
        model: named([[functionCall('helper_tool', { input: 'x' }, { callId: 'c3' })], [assistantMessage('done')]], 'gpt-large'),
        tools: [helper.asTool({ toolName: 'helper_tool', toolDescription: 'Helps.' })],
      });
      const triage = new Agent({
        name: 'Triage',
        model: named([[functionCall('lookup', { id: 'A1' }, { callId: 'c1' })], [functionCall('transfer_to_Specialist', {}, { callId: 'c2' })]], 'gpt-router'),
        tools: [lookup],
        handoffs: [specialist],
        inputGuardrails: [{ name: 'on_topic', execute: async () => ({ tripwireTriggered: false, outputInfo: null }) }],
      });
      const result = await new Runner({ workflowName: 'Support' }).run(triage, 'hi');
      expect(result.finalOutput).toBe('done');
      await processor.forceFlush();

      expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
      expect(tree(receiver.spans)).toEqual([
        'Support',
        '  invoke_workflow Support',
        '    invoke_agent Triage',
        '      guardrail on_topic',
        '      turn 1',
        '        chat gpt-router',
        '        execute_tool lookup',
        '      turn 2',
        '        chat gpt-router',
        '        handoff Triage -> Specialist',
        '    invoke_agent Specialist',
        '      turn 3',
        '        chat gpt-large',
        '        execute_tool helper_tool',
        '          invoke_workflow Agent workflow',
        '            invoke_agent Helper',
        '              turn 1',
        '                chat gpt-small',
        '      turn 4',
        '        chat gpt-large',
      ]);
      // One trace, one service.
      expect(new Set(receiver.spans.map((s) => s.traceId)).size).toBe(1);
      expect(receiver.spans.every((s) => s.resource['service.name'] === 'support-bot')).toBe(true);

      const byName = (name: string) => receiver.spans.find((s) => s.name === name)!;
      expect(byName('invoke_agent Triage').attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'Triage',
        'baton.agent.tools': ['lookup'],
        'baton.agent.handoffs': ['Specialist'],
      });
      expect(byName('chat gpt-router').attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-router' });
      expect(typeof byName('chat gpt-router').attributes['gen_ai.usage.input_tokens']).toBe('number');
      expect(byName('execute_tool lookup').attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup',
        'gen_ai.tool.call.id': 'c1',
        'gen_ai.tool.call.arguments': '{"id":"A1"}',
        'gen_ai.tool.call.result': 'found A1',
      });
      expect(byName('guardrail on_topic').attributes).toMatchObject({ 'baton.guardrail.name': 'on_topic', 'baton.guardrail.triggered': false });
      expect(byName('handoff Triage -> Specialist').attributes).toMatchObject({ 'baton.handoff.from': 'Triage', 'baton.handoff.to': 'Specialist' });
    } finally {
      await processor.shutdown();
      await receiver.close();
    }
  });

  it('without sensitive data, no arguments, results or messages leave; a failed run marks its spans with an error status', async () => {
    const receiver = await otlpReceiver();
    const processor = otlpTracingProcessor({ url: receiver.url });
    setTracingDisabled(false);
    setTraceProcessors([processor]);
    try {
      const broken = tool({ name: 'broken', description: 'Fails.', parameters: z.object({ secret: z.string() }), errorFunction: null, execute: () => { throw new Error('disk on fire'); } });
      const agent = new Agent({ name: 'Worker', model: named([[functionCall('broken', { secret: 'hunter2' }, { callId: 'c1' })]], 'gpt-x'), tools: [broken] });
      await expect(new Runner({ traceIncludeSensitiveData: false }).run(agent, 'go')).rejects.toThrow(/disk on fire/);
      await processor.forceFlush();
      const payload = JSON.stringify(receiver.spans);
      expect(payload).not.toContain('hunter2');
      const tool_ = receiver.spans.find((s) => s.name === 'execute_tool broken')!;
      expect(tool_.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(tool_.status?.code).toBe(2);
      expect(tool_.status?.message).toBe('Error running tool');
      expect(receiver.spans.find((s) => s.name === 'invoke_agent Worker')!.status?.message).toBe('Error in agent run');
    } finally {
      await processor.shutdown();
      await receiver.close();
    }
  });
});

describe('on your own OpenTelemetry tracer provider', () => {
  it('runs started inside your span join your trace, through your exporter', async () => {
    const { context } = await import('@opentelemetry/api');
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
    const { OpenTelemetryTracingProcessor } = await import('../src/opentelemetry/index.js');
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    setTracingDisabled(false);
    setTraceProcessors([new OpenTelemetryTracingProcessor({ tracerProvider: provider })]);
    try {
      const agent = new Agent({ name: 'Greeter', model: named([[assistantMessage('hello')]], 'gpt-mini') });
      const appTracer = provider.getTracer('my-app');
      await appTracer.startActiveSpan('POST /chat', async (request) => {
        await new Runner().run(agent, 'hi');
        request.end();
      });
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const request = spans.find((s) => s.name === 'POST /chat')!;
      const workflow = spans.find((s) => s.name === 'Agent workflow')!;
      expect(workflow.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
      expect(spans.map((s) => s.name)).toEqual(expect.arrayContaining(['invoke_agent Greeter', 'chat gpt-mini', 'turn 1', 'invoke_workflow Agent workflow']));
    } finally {
      context.disable();
      manager.disable();
    }
  });
});
