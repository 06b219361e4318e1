import { anthropic } from '@ai-sdk/anthropic';
import { aisdkProvider } from '@baton/ai-sdk-provider';
import { Agent, MultiProvider, Runner } from '@baton/core';
import { OpenAIProvider } from '@baton/openai-provider';

// Model names with a prefix choose the provider; names without one go to `openai`.
const provider = new MultiProvider({
  providerMap: { openai: new OpenAIProvider(), anthropic: aisdkProvider(anthropic) },
});
const runner = new Runner({ modelProvider: provider });

const specialist = new Agent({ name: 'Specialist', model: 'anthropic/claude-sonnet-4-5' });
const triage = new Agent({ name: 'Triage', model: 'gpt-4.1', handoffs: [specialist] });

// The same agent on another provider is one line: its model name.
const onOpenAI = specialist.clone({ model: 'gpt-4.1' });

export async function answer(question: string) {
  return (await runner.run(triage, question)).finalOutput;
}
export { onOpenAI };
