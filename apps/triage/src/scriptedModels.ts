import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import type { SupportModels } from './agents.js';

export type Scenario = 'refund' | 'billing';

/** The scripted conversations the example plays offline, one model per agent. */
export function scriptedModels(scenario: Scenario): { [K in keyof SupportModels]: ScriptedModel } {
  if (scenario === 'refund') {
    return {
      triage: new ScriptedModel([
        [functionCall('lookup_order', { orderId: 'A-17' }, { callId: 'call_lookup' })],
        [
          assistantMessage('Sorry to hear that. Our refunds team will take it from here.'),
          functionCall('transfer_to_Refunds', { orderId: 'A-17', reason: 'arrived broken' }, { callId: 'call_refunds' }),
        ],
      ]),
      billing: new ScriptedModel([]),
      refunds: new ScriptedModel([
        [functionCall('issue_refund', {}, { callId: 'call_issue' })],
        [assistantMessage('Done: €59.90 for order A-17 is on its way back to your card.')],
      ]),
    };
  }
  return {
    triage: new ScriptedModel([[functionCall('transfer_to_Billing', {}, { callId: 'call_billing' })]]),
    billing: new ScriptedModel([[assistantMessage('Your last invoice was €12.00, paid by card on 3 May.')]]),
    refunds: new ScriptedModel([]),
  };
}
