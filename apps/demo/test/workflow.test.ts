import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '@baton/agents/testing';
import { connectModels, type DemoModels } from '../src/models.js';
import { scriptedConversation } from '../src/scriptedConversation.js';
import { runWorkflow } from '../src/workflow.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((session) => session.close()));
});

async function runDemo(session: DemoModels, server: FakeOpenAIServer) {
  let printed = '';
  const plan = await runWorkflow(session.models, (text) => (printed += text));
  return { plan, printed, bodies: server.requests.map((r) => r.body) };
}

describe('demo workflow', () => {
  it('offline: runs on the OpenAI provider against the local server, streaming both steps', async () => {
    const session = await connectModels({});
    open.push(session);
    expect(session.offline).toBe(true);
    expect(session.banner).toMatch(/^Baton demo: running offline on a scripted model/);
    const { plan, printed, bodies } = await runDemo(session, session.server!);

    expect(plan).toEqual({ city: 'Lisbon', packing: ['sunglasses', 'light jacket', 'sandals'] });
    expect(printed).toContain('get_forecast({"city":"Oslo"})');
    expect(printed).toContain('{"tempC":4,"sky":"light snow"}');
    expect(printed).toContain('Tomorrow Lisbon is sunny');
    expect(printed).toContain('Plan: go to Lisbon; pack sunglasses, light jacket, sandals.');
    // Three streamed Responses calls; the planner saw the researcher's whole history, tool results
    // included, and asked for its plan as a JSON schema.
    expect(session.server!.requests.map((r) => [r.path, r.stream])).toEqual([
      ['/v1/responses', true],
      ['/v1/responses', true],
      ['/v1/responses', true],
    ]);
    expect(JSON.stringify(bodies[2]!.input)).toContain('light snow');
    expect(bodies[2]!.text.format).toMatchObject({ type: 'json_schema', name: 'output', strict: false });
    session.server!.assertComplete();
  });

  it('with OPENAI_API_KEY set: talks to OPENAI_BASE_URL through the same code path', async () => {
    const endpoint = await FakeOpenAIServer.start({ turns: scriptedConversation() });
    open.push(endpoint);
    const session = await connectModels({ OPENAI_API_KEY: 'sk-demo', OPENAI_BASE_URL: endpoint.baseURL, OPENAI_MODEL: 'gpt-4o-mini' });
    expect(session.offline).toBe(false);
    expect(session.banner).toContain(endpoint.baseURL);
    const { plan, bodies } = await runDemo(session, endpoint);
    expect(plan.city).toBe('Lisbon');
    expect(bodies.map((b) => b.model)).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini']);
    expect(endpoint.requests[0]!.headers.authorization).toBe('Bearer sk-demo');
  });
});
