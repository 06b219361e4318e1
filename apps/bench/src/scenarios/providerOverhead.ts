/**
 * What `aisdk()` costs per turn, against Baton's own OpenAI provider, on the same wire: both talk
 * Chat Completions over real HTTP to one local server (the AI SDK through `@ai-sdk/openai-compatible`,
 * Baton through the `openai` client), in one process, alternating blocks. The server's share of the
 * time is the same for both, so the difference is the providers' own overhead.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aisdk } from '@baton/ai-sdk-provider';
import { Agent, Runner, tool } from '@baton/core';
import { OpenAIChatCompletionsModel } from '@baton/openai-provider';
import { fakeText, fakeToolCalls, startFakeModelServer } from '@baton/testing';
import type { Model } from '@baton/types';
import OpenAI from 'openai';
import { z } from 'zod';
import { medianBlock } from './blocks.js';

export interface ProviderOverheadRow {
  readonly provider: string;
  /** Median block, per model turn (a run is one tool turn and one answer). */
  readonly wallMicrosPerTurn: number;
  readonly cpuMicrosPerTurn: number;
}

const TURNS_PER_RUN = 2;

export async function measureProviderOverhead(options: { blocks?: number; runsPerBlock?: number; rounds?: number } = {}): Promise<ProviderOverheadRow[]> {
  const { blocks = 5, runsPerBlock = 40, rounds = 3 } = options;
  const server = await startFakeModelServer();
  try {
    const openai = new OpenAI({ apiKey: 'bench', baseURL: server.baseURL, maxRetries: 0 });
    const compatible = createOpenAICompatible({ name: 'bench', baseURL: server.baseURL, apiKey: 'bench' });
    const models: ReadonlyArray<readonly [string, Model]> = [
      ['Baton OpenAIChatCompletionsModel', new OpenAIChatCompletionsModel(openai, 'gpt-4.1')],
      ['aisdk(@ai-sdk/openai-compatible)', aisdk(compatible.chatModel('gpt-4.1'))],
    ];
    const lookup = tool({ name: 'lookup', description: 'Looks a word up.', parameters: z.object({ word: z.string() }), execute: ({ word }) => `${word}: found` });
    const runner = new Runner({ tracingDisabled: true });
    const runOnce = (model: Model) => async () => {
      server.enqueue(fakeToolCalls([{ name: 'lookup', arguments: { word: 'baton' } }]), fakeText('Found it.'));
      const result = await runner.run(new Agent({ name: 'Bench', model, tools: [lookup] }), 'Look up baton.');
      if (result.finalOutput !== 'Found it.') throw new Error(`provider bench: unexpected output ${String(result.finalOutput)}`);
    };
    const samples = new Map(models.map(([name]) => [name, [] as Array<{ wall: number; cpu: number }>]));
    for (const [, model] of models) for (let i = 0; i < 30; i++) await runOnce(model)(); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const [name, model] of models) {
        const cost = await medianBlock(blocks, runsPerBlock, runOnce(model));
        samples.get(name)!.push({ wall: cost.wallMicros / runsPerBlock / TURNS_PER_RUN, cpu: cost.cpuMicros / runsPerBlock / TURNS_PER_RUN });
      }
    }
    return models.map(([name]) => {
      const list = samples.get(name)!;
      return { provider: name, wallMicrosPerTurn: median(list.map((s) => s.wall)), cpuMicrosPerTurn: median(list.map((s) => s.cpu)) };
    });
  } finally {
    await server.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function formatProviderOverhead(rows: readonly ProviderOverheadRow[]): string {
  const [own, adapted] = rows;
  const lines = rows.map((row) => `  ${row.provider.padEnd(34)} ${row.wallMicrosPerTurn.toFixed(0).padStart(6)} µs wall  ${row.cpuMicrosPerTurn.toFixed(0).padStart(6)} µs CPU per turn`);
  if (own && adapted) {
    const signed = (micros: number) => `${micros >= 0 ? '+' : '−'}${Math.abs(micros).toFixed(0)} µs`;
    lines.push(
      `  aisdk() over the AI SDK's OpenAI-compatible provider against Baton's own, per turn: ` +
        `wall ${signed(adapted.wallMicrosPerTurn - own.wallMicrosPerTurn)} (${(adapted.wallMicrosPerTurn / own.wallMicrosPerTurn).toFixed(2)}×), ` +
        `CPU ${signed(adapted.cpuMicrosPerTurn - own.cpuMicrosPerTurn)} (${(adapted.cpuMicrosPerTurn / own.cpuMicrosPerTurn).toFixed(2)}×).`,
    );
  }
  return ['Providers over real HTTP to a local Chat Completions server (same process, alternating; server time included for both):', ...lines].join('\n');
}
