import { Agent, run } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';

// The simplest handoff: list the agents; the model sees a `transfer_to_<name>` tool for each.
const billing = new Agent({
  name: 'Billing',
  handoffDescription: 'Invoices, payments and refunds',
  model: new ScriptedModel([[assistantMessage('Your invoice was sent again.')]]),
});
const triage = new Agent({
  name: 'Triage',
  instructions: 'Send each customer to the right agent.',
  model: new ScriptedModel([[functionCall('transfer_to_Billing', {})]]),
  handoffs: [billing],
});

const result = await run(triage, 'I did not get my invoice');
console.log(result.lastAgent?.name); // Billing
console.log(result.finalOutput); // Your invoice was sent again.
