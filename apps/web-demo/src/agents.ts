import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall, modelStream } from '@baton/testing';
import { Agent, type AgentOutputItem, type ModelStreamEvent } from '@baton/core';
import { notify, streamingTool } from '@baton/streaming';

/**
 * The demo's agents, offline: scripted models play the conversation back with a typing effect.
 *
 *   Planner ── analyze_weather   (a streaming tool: progress bar)
 *           └─ research          (the Researcher agent as a streaming tool: an inner panel)
 *                 └─ search_guides (a streaming tool inside the inner run)
 *
 * Everything inside `research` is shown in its panel; only its final answer enters the conversation.
 */
export interface DemoOptions {
  /** Pause between streamed words and progress steps, in ms (tests use a small one). */
  delayMs: number;
}

export const FINAL_ANSWER = 'Lisbon looks great this week: sunny and 24 °C. Top picks from the researcher: Alfama, Belém and LX Factory.';
export const INNER_ANSWER = 'Top picks: Alfama for the views, Belém for pastéis de nata, LX Factory on Sunday.';

/** Waits `ms`, or rejects as soon as the signal fires (a cancelled run stops at once). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A scripted response streamed word by word. */
function typed(output: AgentOutputItem[], delayMs: number) {
  return modelStream(async function* (call): AsyncIterable<ModelStreamEvent> {
    yield { type: 'response_started' };
    for (const item of output) {
      if (item.type !== 'message' || item.role !== 'assistant') continue;
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        for (const word of part.text.split(/(?<= )/)) {
          await sleep(delayMs, call.request.signal);
          yield { type: 'output_text_delta', delta: word };
        }
      }
    }
    yield { type: 'response_done', response: { id: `demo-${call.index}`, usage: {}, output } };
  });
}

export function createDemoAgent({ delayMs }: DemoOptions): Agent<unknown, 'text'> {
  const analyzeWeather = streamingTool({
    name: 'analyze_weather',
    description: 'Analyses a week of weather data for a city, reporting progress.',
    parameters: z.object({ city: z.string() }),
    async *execute({ city }, _context, details) {
      const stages = ['Downloading forecasts', 'Cleaning readings', 'Averaging', 'Comparing with last year', 'Summarising'];
      for (let i = 0; i < stages.length; i++) {
        await sleep(delayMs * 2, details.signal);
        yield notify({ pct: Math.round(((i + 1) / stages.length) * 100), label: `${stages[i]} (${city})` }, 'progress');
      }
      return { city, summary: 'sunny', highC: 24 };
    },
  });

  const searchGuides = streamingTool({
    name: 'search_guides',
    description: 'Searches travel guides.',
    parameters: z.object({ q: z.string() }),
    async *execute({ q }, _context, details) {
      const sources = ['guide A', 'guide B', 'guide C', 'guide D'];
      for (let i = 0; i < sources.length; i++) {
        await sleep(delayMs * 2, details.signal);
        yield notify({ pct: Math.round(((i + 1) / sources.length) * 100), label: `Read ${sources[i]}` }, 'progress');
      }
      return `4 guides about "${q}": Alfama, Belém, LX Factory`;
    },
  });

  const researcherModel = new ScriptedModel([
    typed([assistantMessage('Searching the travel guides… '), functionCall('search_guides', { q: 'things to do in Lisbon' }, { callId: 'call_search' })], delayMs),
    typed([assistantMessage(INNER_ANSWER)], delayMs),
  ]);
  const researcher = new Agent({
    name: 'Researcher',
    instructions: 'You research travel destinations.',
    handoffDescription: 'Finds the best things to do somewhere',
    model: researcherModel,
    tools: [searchGuides],
  });

  const plannerModel = new ScriptedModel([
    typed(
      [assistantMessage('Let me check the weather first. '), functionCall('analyze_weather', { city: 'Lisbon' }, { callId: 'call_weather' })],
      delayMs,
    ),
    typed(
      [assistantMessage('Now I will ask the researcher. '), functionCall('research', { input: 'Best things to do in Lisbon' }, { callId: 'call_research' })],
      delayMs,
    ),
    typed([assistantMessage(FINAL_ANSWER)], delayMs),
  ]);
  return new Agent({
    name: 'Planner',
    instructions: 'You plan trips.',
    model: plannerModel,
    tools: [analyzeWeather, researcher.asTool({ toolName: 'research', toolDescription: 'Ask the researcher', streaming: true })],
  });
}
