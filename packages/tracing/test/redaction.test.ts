import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, Runner, tool, type Model } from '@baton/core';
import { ScriptedModel, functionCall } from '@baton/testing';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { setTraceProcessors, setTracingDisabled } from '../src/index.js';
import { OpenTelemetryTracingProcessor } from '../src/opentelemetry/index.js';
import { recordingProcessor } from './recording.js';

/**
 * The attack: a tool (or a model) fails with an error whose text carries what the run was told to
 * keep out of traces — the tool's arguments and a secret. With `traceIncludeSensitiveData: false`
 * none of it may reach an exported span: not the span's error data, not its message, not the
 * OpenTelemetry status.
 */

const SECRET = 'sk-live-0123456789abcdef';
const ARGUMENT = 'card-4111-1111-1111-1111';

afterEach(() => setTraceProcessors([]));

function failingRefund() {
  return tool({
    name: 'refund',
    description: 'Refunds a card.',
    parameters: z.object({ card: z.string() }),
    errorFunction: null,
    execute: ({ card }) => {
      throw new Error(`payment API rejected ${card} (key ${SECRET})`);
    },
  });
}

/** Both exports at once: the OpenAI ingest's JSON (recorded) and OpenTelemetry (in memory). */
function exporters() {
  const recorder = recordingProcessor();
  const otel = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: otel })] });
  setTracingDisabled(false);
  setTraceProcessors([recorder.processor, new OpenTelemetryTracingProcessor({ tracerProvider: provider })]);
  const exported = async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await provider.forceFlush();
    const otelSpans = otel.getFinishedSpans().map((span) => ({ name: span.name, status: span.status, attributes: span.attributes, events: span.events }));
    return { ingest: recorder.ended.map((span) => span.json), otel: otelSpans };
  };
  return { exported };
}

async function failedRun(model: Model, config: { traceIncludeSensitiveData: boolean }, tools = [failingRefund()]) {
  const { exported } = exporters();
  const agent = new Agent({ name: 'Cashier', model, tools });
  const outcome = await new Runner(config).run(agent, 'refund me').then(
    () => 'ok',
    (error: unknown) => String(error),
  );
  return { outcome, ...(await exported()) };
}

function refundCall(): Model {
  return new ScriptedModel([[functionCall('refund', { card: ARGUMENT }, { callId: 'c1' })]]);
}

describe('with traceIncludeSensitiveData: false, failures leave no sensitive text in exported spans', () => {
  it('a tool that fails the run: its error (with its argument and a secret) reaches neither export', async () => {
    const { outcome, ingest, otel } = await failedRun(refundCall(), { traceIncludeSensitiveData: false });
    // The caller still gets the whole error: only the traces are redacted.
    expect(outcome).toContain(SECRET);

    const everything = JSON.stringify({ ingest, otel });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(ARGUMENT);
    expect(everything).not.toContain('payment API rejected');

    const functionSpan = ingest.find((span) => span.span_data.type === 'function')!;
    expect(functionSpan.error).toEqual({ message: 'Error running tool', data: { tool_name: 'refund', error: 'Tool execution failed. Error details are redacted.' } });
    const otelTool = otel.find((span) => span.name === 'execute_tool refund')!;
    expect(otelTool.status).toEqual({ code: 2, message: 'Error running tool' });
  });

  it('a model that fails: its error text stays out of the model, turn, agent and task spans', async () => {
    const failing: Model = {
      modelName: 'gpt-x',
      traceSpanType: 'generation',
      getResponse: async () => {
        throw new Error(`400 from upstream: your instructions were "${ARGUMENT}", key ${SECRET}`);
      },
      getStreamedResponse: () => {
        throw new Error('not streamed');
      },
    };
    const { outcome, ingest, otel } = await failedRun(failing, { traceIncludeSensitiveData: false }, []);
    expect(outcome).toContain(SECRET);
    const everything = JSON.stringify({ ingest, otel });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(ARGUMENT);
    const generation = ingest.find((span) => span.span_data.type === 'generation')!;
    expect(generation.error).toEqual({ message: 'Error getting response', data: { error: 'Error' } });
    expect(otel.find((span) => span.name === 'chat gpt-x')!.status).toEqual({ code: 2, message: 'Error getting response' });
  });

  it('with sensitive data on, the tool’s error is in the trace, as the reference records it', async () => {
    const { ingest } = await failedRun(refundCall(), { traceIncludeSensitiveData: true });
    const functionSpan = ingest.find((span) => span.span_data.type === 'function')!;
    expect(functionSpan.error.data.error).toContain(SECRET);
    expect(functionSpan.span_data.input).toContain(ARGUMENT);
  });
});
