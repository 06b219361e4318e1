// A program in the style of the reference's guides, type-checked (strict) against both SDKs: the
// module 'sdk' is @openai/agents in one compilation and @baton/agents in the other.
import { z } from 'zod';
import {
  Agent,
  MemorySession,
  RunContext,
  Runner,
  run,
  tool,
  user,
  assistant,
  extractAllTextOutput,
  type InputGuardrail,
  type OutputGuardrail,
} from 'sdk';

interface AppContext {
  userId: string;
}

const getWeather = tool({
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).optional() }),
  needsApproval: async (_ctx, { city }) => city === 'Paris',
  execute: async ({ city, unit }) => `Sunny in ${city} (${unit ?? 'c'})`,
});

const polite: InputGuardrail = {
  name: 'polite',
  execute: async ({ input }) => ({ tripwireTriggered: typeof input === 'string' && input.includes('stupid'), outputInfo: null }),
};

const Weather = z.object({ city: z.string(), summary: z.string() });

const noSecrets: OutputGuardrail<typeof Weather> = {
  name: 'no_secrets',
  execute: async ({ agentOutput }) => ({ tripwireTriggered: agentOutput.summary.includes('secret'), outputInfo: null }),
};

const forecaster = new Agent<AppContext, typeof Weather>({
  name: 'Forecaster',
  instructions: 'Answer with the forecast.',
  outputType: Weather,
  outputGuardrails: [noSecrets],
  tools: [getWeather],
});

const triage = new Agent({
  name: 'Triage',
  instructions: 'Route weather questions.',
  handoffs: [forecaster],
  inputGuardrails: [polite],
});

export async function main(): Promise<void> {
  const result = await run(forecaster, 'Weather in Oslo?', { context: { userId: 'u1' }, maxTurns: 5 });
  const city: string | undefined = result.finalOutput?.city;
  void city;

  let state = result.state;
  for (const interruption of result.interruptions) state.approve(interruption);
  const resumed = await run(forecaster, state);
  void resumed.finalOutput;

  const stream = await run(triage, 'Weather?', { stream: true });
  for await (const event of stream) {
    if (event.type === 'raw_model_stream_event') void event.data;
  }
  await stream.completed;

  const runner = new Runner({ model: 'gpt-4.1' });
  const session = new MemorySession();
  await runner.run(triage, [user('hi'), assistant('hello')], { session });
  void extractAllTextOutput(result.newItems);

  state = result.state;
  const text = state.toString();
  const restored = await forecaster.toJSON();
  void restored;
  void text;
  void new RunContext<AppContext>({ userId: 'u2' });
}
