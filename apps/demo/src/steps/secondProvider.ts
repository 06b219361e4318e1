import { fakeText, fakeToolCalls } from '@baton/testing';
import type { Backend } from '../backend.js';
import { say, stepHeader, type Log } from '../log.js';
import { refundSpecialist } from '../specialist.js';

export interface SecondProviderFacts {
  readonly model: string;
  /** The local server's routes this step called (`/v1/messages` is Anthropic's Messages API). */
  readonly routes: string[];
  readonly apis: string[];
  readonly toolCalled: boolean;
  readonly answer: string;
}

/**
 * Step 5: the same refund specialist on Anthropic, through the AI SDK (`aisdk()` via
 * `aisdkProvider`). What changes is one line: its model name, which `MultiProvider` routes by prefix.
 */
export async function secondProviderStep(backend: Backend, log: Log): Promise<SecondProviderFacts> {
  stepHeader(log, 5, 'The same specialist on another provider', 'one line changes — the model name — and the same agent, tools and instructions run on Anthropic\'s Messages API through the AI SDK.');
  backend.script(
    'anthropic',
    fakeToolCalls([{ name: 'lookup_order', arguments: { orderId: 'A-17' } }]),
    fakeText('Order A-17, your espresso machine, was delivered two days ago and arrived broken; it qualifies for a EUR 42 refund.'),
  );
  const specialist = refundSpecialist(backend.openaiModel);
  const onClaude = specialist.clone({ model: backend.anthropicModel }); // ← the one line
  say(log, `specialist.clone({ model: '${backend.anthropicModel}' })   (was '${backend.openaiModel}')`);

  const firstRequest = backend.server.requests.length;
  const result = await backend.runner.run(onClaude, 'What is the status of order A-17? Just tell me, do not refund yet.');
  const requests = backend.server.requests.slice(firstRequest);
  const toolCalled = result.newItems.some((item) => item.type === 'tool_call_item' && (item.rawItem as { name?: string }).name === 'lookup_order');
  const routes = requests.map((r) => `${r.method} ${r.path} (${r.model})`);
  const apis = requests.map((r) => String(r.api));
  if (backend.anthropicOffline) say(log, `local server saw: ${routes.join(', ')}`);
  else say(log, `sent to Anthropic (ANTHROPIC_API_KEY is set)`);
  say(log, `lookup_order called through Anthropic tool_use: ${toolCalled ? 'yes' : 'no'}`);
  const answer = String(result.finalOutput ?? '');
  say(log, `${result.lastAgent?.name} on ${backend.anthropicModel}: "${answer}"`);
  return { model: backend.anthropicModel, routes, apis, toolCalled, answer };
}
