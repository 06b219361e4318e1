/**
 * The same agent graph on OpenAI, on Anthropic through `aisdk()`, and mixed (a cheap Gemini model
 * for the guardrail, Claude for the specialist, GPT for triage). Offline by default: one local
 * server answers in each vendor's wire format, through each vendor's real client over HTTP. With
 * `PROVIDERS_ONLINE=1` and the vendors' keys set, the same code talks to the real APIs.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { aisdkProvider } from '@baton/ai-sdk-provider';
import { InputGuardrailTripwireTriggered, MultiProvider, RunState, Runner } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';
import { startFakeModelServer, type FakeModelServer } from '@baton/testing';
import type { Log } from '../guardrails/log.js';
import { scriptRequests } from './offlineScript.js';
import { SETUPS, supportAgents, type SetupName } from './supportAgents.js';

/** The model provider for every setup: prefixes to vendors, each on its own client. */
function vendors(server: FakeModelServer | undefined): MultiProvider {
  const offline = server === undefined ? undefined : { apiKey: 'offline' };
  const anthropic = createAnthropic(server ? { ...offline, baseURL: server.anthropicBaseURL } : {});
  const google = createGoogleGenerativeAI(server ? { ...offline, baseURL: server.googleBaseURL } : {});
  return new MultiProvider({
    providerMap: {
      openai: new OpenAIProvider(server ? { ...offline, baseURL: server.baseURL } : {}),
      anthropic: aisdkProvider(anthropic),
      google: aisdkProvider(google),
    },
  });
}

/** Which vendor a request went to, from its route. */
function vendorOf(path: string): string {
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.includes(':generateContent') || path.includes(':streamGenerateContent')) return 'google';
  return 'openai';
}

export interface SetupOutcome {
  readonly setup: SetupName;
  readonly pausedOn: string[];
  readonly finalOutput: unknown;
  readonly lastAgent: string | undefined;
  readonly offTopicTripped: boolean;
  /** Offline only: the triage request running beside the tripped guardrail was aborted. */
  readonly triageAborted: boolean | undefined;
  /** Offline only: `vendor model` of each request, in order, for the refund run. */
  readonly requests: string[];
}

export async function providersExample(setup: SetupName, log: Log, online = false): Promise<SetupOutcome> {
  const server = online ? undefined : await startFakeModelServer();
  try {
    const models = SETUPS[setup];
    log(`-- setup '${setup}': triage on ${models.triage}, guardrail on ${models.guardrail}, specialist on ${models.specialist}`);
    const runner = new Runner({ modelProvider: vendors(server) });
    const { triage } = supportAgents(models);

    if (server) scriptRequests(server, 3);
    let result = await runner.run(triage, 'I was charged twice for order 1234. Please refund the duplicate $42.');
    const pausedOn = result.interruptions.map((item) => `${item.name ?? ''} ${item.arguments ?? ''}`);
    log(`paused for approval: ${pausedOn.join(', ')}`);
    // Stored as a string (a database row in a real app), then approved by a human and resumed.
    const state = await RunState.fromString(triage, result.state.toString());
    for (const item of state.getInterruptions()) state.approve(item, { decidedBy: 'billing-lead@example.com', reason: 'duplicate charge confirmed' });
    if (server) scriptRequests(server, 1);
    result = await runner.run(triage, state);
    const requests = server ? server.requests.map((request) => `${vendorOf(request.path)} ${request.model ?? ''}`) : [];
    log(`answer from ${result.lastAgent?.name}: ${String(result.finalOutput)}`);
    if (server) log(`requests: ${requests.join(' | ')}`);

    if (server) scriptRequests(server, 2);
    const before = server?.requests.length ?? 0;
    const offTopic = await runner.run(triage, 'Write me a poem about pirates.').catch((error: unknown) => error);
    const offTopicTripped = offTopic instanceof InputGuardrailTripwireTriggered;
    // The guardrail ran beside triage; when it tripped, triage's request was cut off mid-flight.
    const triageAborted = server ? (await Promise.all([before, before + 1].map((i) => server.settled(i)))).some((r) => r.outcome === 'client_closed') : undefined;
    log(`off-topic request: ${offTopicTripped ? 'stopped by the on-topic guardrail' : 'NOT stopped'}${triageAborted ? "; triage's model request was aborted" : ''}`);
    return { setup, pausedOn, finalOutput: result.finalOutput, lastAgent: result.lastAgent?.name, offTopicTripped, triageAborted, requests };
  } finally {
    await server?.close();
  }
}
