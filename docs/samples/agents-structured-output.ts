import { Agent, run } from '@baton/core';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { z } from 'zod';

// `outputType` makes the final answer a parsed, typed value instead of text.
const Ticket = z.object({ category: z.enum(['billing', 'shipping', 'other']), urgent: z.boolean() });

const model = new ScriptedModel([[assistantMessage(JSON.stringify({ category: 'shipping', urgent: true }))]]);
const classifier = new Agent({
  name: 'Classifier',
  instructions: 'Classify the customer message.',
  model,
  outputType: Ticket,
});

const result = await run(classifier, 'My parcel is lost and I need it tomorrow!');
const ticket = result.finalOutput; // typed as { category: ...; urgent: boolean } | undefined
console.log(ticket?.category, ticket?.urgent); // shipping true
