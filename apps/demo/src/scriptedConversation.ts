import { fakeText, fakeToolCalls, type FakeTurn } from '@baton/agents/testing';

/**
 * The conversation the local OpenAI-compatible server plays when the demo runs offline: the
 * researcher asks for two forecasts at once, then summarises; the planner answers with its plan
 * as JSON (the structured output the planner agent asks for).
 */
export function scriptedConversation(): FakeTurn[] {
  return [
    fakeToolCalls([
      { name: 'get_forecast', arguments: { city: 'Lisbon' }, callId: 'call_1' },
      { name: 'get_forecast', arguments: { city: 'Oslo' }, callId: 'call_2' },
    ]),
    fakeText('Tomorrow Lisbon is sunny at 21°C, while Oslo sees light snow at 4°C.', { stream: { deltaChunks: 8, eventDelayMs: 15 } }),
    fakeText(JSON.stringify({ city: 'Lisbon', packing: ['sunglasses', 'light jacket', 'sandals'] })),
  ];
}
