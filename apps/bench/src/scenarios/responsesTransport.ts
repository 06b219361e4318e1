/**
 * Turn latency of the Responses API over HTTP and over a kept WebSocket (issue 30): the same agent
 * (one tool, so each run is a tool turn and an answer turn) runs against the fake OpenAI server
 * through `OpenAIProvider`, once per transport per round, rounds alternating so drift hits both.
 * Each figure is the wall time per model turn (request sent to answer read, including Baton's
 * loop), the median over rounds; the ratio is WebSocket / HTTP (below 1: the socket is faster).
 * A kept socket saves a request's connection reuse bookkeeping and HTTP framing; on a loopback
 * server that is most of a turn's transport cost, on the internet it is the handshake it saves.
 */
import { Agent, Runner, tool } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';
import { FakeOpenAIServer, fakeText, fakeToolCalls } from '@baton/testing';
import { z } from 'zod';

export interface ResponsesTransportOptions {
  /** Rounds (default 30), each one run per transport, after `warmupRounds` (default 5). */
  readonly rounds?: number;
  readonly warmupRounds?: number;
  /** Runs per transport in a round (default 10); each run is two model turns. */
  readonly runsPerRound?: number;
}

export const RESPONSES_TRANSPORT_QUICK: ResponsesTransportOptions = { rounds: 5, warmupRounds: 1, runsPerRound: 3 };

export interface ResponsesTransportResult {
  readonly turns: number;
  /** Median milliseconds per model turn. */
  readonly httpMsPerTurn: number;
  readonly websocketMsPerTurn: number;
  /** WebSocket / HTTP. */
  readonly ratio: number;
  /** WebSocket connections the fake server accepted for all the WebSocket runs (1: the socket was kept). */
  readonly websocketUpgrades: number;
}

const TURNS_PER_RUN = 2;

export async function measureResponsesTransport(options: ResponsesTransportOptions = {}): Promise<ResponsesTransportResult> {
  const rounds = options.rounds ?? 30;
  const warmup = options.warmupRounds ?? 5;
  const runs = options.runsPerRound ?? 10;
  const server = await FakeOpenAIServer.start();
  const lookup = tool({ name: 'lookup', description: 'Find an order.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `${id}: delivered` });
  const agent = new Agent({ name: 'Orders', model: 'gpt-5.4', tools: [lookup] });
  const http = new Runner({ modelProvider: new OpenAIProvider({ apiKey: 'sk-bench', baseURL: server.baseURL }), tracingDisabled: true });
  const wsProvider = new OpenAIProvider({ apiKey: 'sk-bench', baseURL: server.baseURL, useResponsesWebSocket: true });
  const websocket = new Runner({ modelProvider: wsProvider, tracingDisabled: true });
  const timeRuns = async (runner: Runner): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < runs; i++) {
      server.enqueue(fakeToolCalls([{ name: 'lookup', arguments: { id: `A${i}` }, callId: `c${i}` }]), fakeText('delivered'));
      const result = await runner.run(agent, 'Where is my order?');
      if (result.finalOutput !== 'delivered') throw new Error(`the bench run ended with ${JSON.stringify(result.finalOutput)}`);
    }
    return (performance.now() - started) / (runs * TURNS_PER_RUN);
  };
  const httpTimes: number[] = [];
  const wsTimes: number[] = [];
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      // Alternate which goes first, so neither always runs on a warmer process.
      const order = round % 2 === 0 ? ([http, websocket] as const) : ([websocket, http] as const);
      for (const runner of order) {
        const perTurn = await timeRuns(runner);
        if (round >= warmup) (runner === http ? httpTimes : wsTimes).push(perTurn);
      }
    }
  } finally {
    await wsProvider.close();
    await server.close();
  }
  const httpMsPerTurn = median(httpTimes);
  const websocketMsPerTurn = median(wsTimes);
  return {
    turns: rounds * runs * TURNS_PER_RUN,
    httpMsPerTurn,
    websocketMsPerTurn,
    ratio: websocketMsPerTurn / httpMsPerTurn,
    websocketUpgrades: server.upgrades,
  };
}

export function formatResponsesTransport(result: ResponsesTransportResult): string {
  return [
    `Responses turn latency, ${result.turns} turns per transport (median per turn):`,
    `  HTTP       ${result.httpMsPerTurn.toFixed(3)} ms`,
    `  WebSocket  ${result.websocketMsPerTurn.toFixed(3)} ms  (${result.websocketUpgrades} connection${result.websocketUpgrades === 1 ? '' : 's'})`,
    `  ratio WebSocket / HTTP: ${result.ratio.toFixed(2)}x`,
  ].join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
