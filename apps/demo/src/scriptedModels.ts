import { ScriptedModel, assistantMessage, functionCall } from '@baton/agents/testing';

/** The scripted conversation the demo plays when no OpenAI key is configured. */
export function scriptedModels(): { researcher: ScriptedModel; planner: ScriptedModel } {
  return {
    researcher: new ScriptedModel([
      [functionCall('get_forecast', { city: 'Lisbon' }, { callId: 'call_1' }), functionCall('get_forecast', { city: 'Oslo' }, { callId: 'call_2' })],
      [assistantMessage('Tomorrow Lisbon is sunny at 21°C, while Oslo sees light snow at 4°C.')],
    ]),
    planner: new ScriptedModel([
      [assistantMessage(JSON.stringify({ city: 'Lisbon', packing: ['sunglasses', 'light jacket', 'sandals'] }))],
    ]),
  };
}
