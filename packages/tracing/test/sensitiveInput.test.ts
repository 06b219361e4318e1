// The README's table: a generation span carries the model's "input and output items" only with
// `traceIncludeSensitiveData` (default on). With it off, a secret the user typed must reach no
// span at all: not the ingest JSON, not the span data a processor is handed (its in-process `_`
// fields included), not OpenTelemetry. Both sides are pinned, so dropping the guard fails here.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, Runner, type Model } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { setTraceProcessors, setTracingDisabled, type Span, type TracingProcessor } from '../src/index.js';
import { OpenTelemetryTracingProcessor } from '../src/opentelemetry/index.js';

const USER_SECRET = 'my password is hunter2-7f3a9c';
const MODEL_SECRET = 'your reset code is 90417-zeta';

afterEach(() => setTraceProcessors([]));

/** Everything any processor could see of every span: its exported JSON and its raw span data, at start and at end. */
function everythingSeen() {
  const seen: string[] = [];
  const ended: Record<string, any>[] = [];
  const look = (span: Span<any>) => {
    seen.push(JSON.stringify(span.toJSON()));
    seen.push(JSON.stringify(span.spanData));
  };
  const processor: TracingProcessor = {
    async onTraceStart() {},
    async onTraceEnd() {},
    async onSpanStart(span) {
      look(span);
    },
    async onSpanEnd(span) {
      look(span);
      ended.push(span.toJSON() as Record<string, any>);
    },
    async shutdown() {},
    async forceFlush() {},
  };
  const otel = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: otel })] });
  setTracingDisabled(false);
  setTraceProcessors([processor, new OpenTelemetryTracingProcessor({ tracerProvider: provider })]);
  const read = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await provider.forceFlush();
    for (const span of otel.getFinishedSpans()) seen.push(JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, status: span.status }));
    return { text: seen.join('\n'), ended };
  };
  return { read };
}

function scripted(): ScriptedModel {
  return new ScriptedModel([[assistantMessage(MODEL_SECRET)]]);
}

/** The same script behind a model that asks for `response` spans (as the OpenAI Responses model does). */
function responsesStyle(): Model {
  const inner = scripted();
  return {
    modelName: 'scripted-responses',
    traceSpanType: 'response',
    getResponse: (request) => inner.getResponse(request),
    getStreamedResponse: (request) => inner.getStreamedResponse(request),
  };
}

async function tracedRun(model: Model, traceIncludeSensitiveData: boolean | undefined, stream = false) {
  const { read } = everythingSeen();
  const agent = new Agent({ name: 'Helpdesk', model });
  const runner = new Runner(traceIncludeSensitiveData === undefined ? {} : { traceIncludeSensitiveData });
  if (stream) {
    const result = await runner.run(agent, USER_SECRET, { stream: true });
    for await (const _event of result);
    await result.completed;
    expect(result.finalOutput).toBe(MODEL_SECRET);
  } else {
    const result = await runner.run(agent, USER_SECRET);
    expect(result.finalOutput).toBe(MODEL_SECRET);
  }
  return read();
}

describe('traceIncludeSensitiveData: false', () => {
  it('keeps the user’s input and the model’s output out of every span (generation spans)', async () => {
    const { text, ended } = await tracedRun(scripted(), false);
    expect(ended.some((span) => span.span_data.type === 'generation')).toBe(true);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('90417-zeta');
  });

  it('keeps them out of a streamed run’s spans too', async () => {
    const { text, ended } = await tracedRun(scripted(), false, true);
    expect(ended.some((span) => span.span_data.type === 'generation')).toBe(true);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('90417-zeta');
  });

  it('keeps them out of response spans (Responses-style models)', async () => {
    const { text, ended } = await tracedRun(responsesStyle(), false);
    expect(ended.some((span) => span.span_data.type === 'response')).toBe(true);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('90417-zeta');
  });
});

describe('with sensitive data on (the default)', () => {
  it('the generation span carries the input and output items', async () => {
    const { ended } = await tracedRun(scripted(), undefined);
    const generation = ended.find((span) => span.span_data.type === 'generation')!;
    expect(JSON.stringify(generation.span_data.input)).toContain('hunter2');
    expect(JSON.stringify(generation.span_data.output)).toContain('90417-zeta');
  });
});
