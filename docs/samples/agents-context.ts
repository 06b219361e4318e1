import { Agent, RunContext, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';

// Your own context value reaches tools, instructions and guardrails; it is never sent to the model.
interface Customer {
  id: string;
  tier: 'free' | 'pro';
}

const getPlan = tool({
  name: 'get_plan',
  description: 'The plan of the current customer',
  parameters: z.object({}),
  execute: (_input, context?: RunContext<Customer>) => `customer ${context?.context.id} is on ${context?.context.tier}`,
});

const agent = new Agent<Customer>({
  name: 'Account',
  instructions: (context) => `You help customer ${context.context.id}.`,
  model: new ScriptedModel([[functionCall('get_plan', {})], [assistantMessage('You are on the pro plan.')]]),
  tools: [getPlan],
});

const result = await run(agent, 'Which plan am I on?', { context: { id: 'c-7', tier: 'pro' }, maxTurns: 5 });
console.log(result.finalOutput); // You are on the pro plan.
