// The model span of a model that names no model. The tracing README's table: a generation span
// carries "model, settings, usage"; the OpenTelemetry section names a model span `chat <model>` with
// `gen_ai.request.model`. A model that says how it is traced (`traceSpanType`) but has no
// `modelName` gets its span all the same, naming no model: no `model` on the generation span, and
// OpenTelemetry's span is plain `chat` without `gen_ai.request.model` — never another attribute's
// value (its span type, say) standing in for the name.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Runner, type Model } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { recordingProcessor } from './recording.js';

afterEach(() => setTraceProcessors([]));

/** A scripted model that says how it is traced, and has no name. */
function nameless(traceSpanType: 'response' | 'generation'): Model {
  const inner = new ScriptedModel([[assistantMessage('hello')]]);
  return { traceSpanType, getResponse: (request) => inner.getResponse(request), getStreamedResponse: (request) => inner.getStreamedResponse(request) };
}

async function otelSpans(model: Model) {
  const { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } = await import('@opentelemetry/sdk-trace');
  const { OpenTelemetryTracingProcessor } = await import('../src/opentelemetry/index.js');
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const recorder = recordingProcessor();
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor, new OpenTelemetryTracingProcessor({ tracerProvider: provider })]);
  const result = await new Runner().run(new Agent({ name: 'Plain', model }), 'hi');
  expect(result.finalOutput).toBe('hello');
  await new Promise((resolve) => setTimeout(resolve, 20));
  await provider.forceFlush();
  return { otel: exporter.getFinishedSpans(), ended: recorder.ended.map((span) => span.json) };
}

describe('a model that names no model', () => {
  it('generation-style: its span has no model, and OpenTelemetry’s is plain "chat" without a request model', async () => {
    const { otel, ended } = await otelSpans(nameless('generation'));
    const generation = ended.find((span) => span.span_data.type === 'generation')!;
    expect(generation.span_data).not.toHaveProperty('model');
    const chat = otel.find((span) => span.attributes['gen_ai.operation.name'] === 'chat')!;
    expect(chat.name).toBe('chat');
    expect(chat.attributes).not.toHaveProperty('gen_ai.request.model');
  });

  it('Responses-style: the run goes on, its response span is there, and OpenTelemetry’s is plain "chat" without a request model', async () => {
    const { otel, ended } = await otelSpans(nameless('response'));
    expect(ended.map((span) => span.span_data.type)).toContain('response');
    const chat = otel.find((span) => span.attributes['gen_ai.operation.name'] === 'chat')!;
    expect(chat.name).toBe('chat');
    expect(chat.attributes).not.toHaveProperty('gen_ai.request.model');
  });
});
