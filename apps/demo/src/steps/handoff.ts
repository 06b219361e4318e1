import { fakeText, fakeToolCalls } from '@baton/testing';
import type { Backend } from '../backend.js';
import { say, stepHeader, type Log } from '../log.js';
import { refundSpecialist } from '../specialist.js';
import { shippingSpecialist, triageAgent, type CaseSummary } from '../triage.js';

export const CUSTOMER = 'Hi, my order A-17 arrived broken. I want my money back.';

export interface HandoffFacts {
  readonly handedOffTo: string | undefined;
  readonly caseSummary: CaseSummary | undefined;
  readonly lastAgent: string;
  readonly answer: string;
}

/** Step 1: triage reads the request and hands it, with a typed case summary, to the refund specialist. */
export async function handoffStep(backend: Backend, log: Log): Promise<HandoffFacts> {
  stepHeader(log, 1, 'Triage hands off to a specialist', 'triage calls the handoff tool with a typed case summary; the run continues on the specialist, in the same run.');
  backend.script(
    'openai',
    fakeToolCalls([{ name: 'transfer_to_Refund_specialist', arguments: { orderId: 'A-17', reason: 'arrived broken' } }]),
    fakeText('I am sorry your espresso machine arrived broken. Order A-17 qualifies for a full refund of EUR 42; I can issue it now.'),
  );
  let handedOffTo: string | undefined;
  let caseSummary: CaseSummary | undefined;
  const specialist = refundSpecialist(backend.openaiModel);
  const triage = triageAgent(backend.openaiModel, [shippingSpecialist(backend.openaiModel), specialist], (to, summary) => {
    handedOffTo = to;
    caseSummary = summary;
  });

  say(log, `customer: "${CUSTOMER}"`);
  const result = await backend.runner.run(triage, CUSTOMER);
  for (const item of result.newItems) {
    if (item.type === 'handoff_call_item') say(log, `Triage → ${item.rawItem.name}(${item.rawItem.arguments})`);
    if (item.type === 'handoff_output_item') say(log, `handoff: ${item.sourceAgent.name} → ${item.targetAgent.name}`);
  }
  say(log, `onHandoff received the case summary: ${JSON.stringify(caseSummary)}`);
  const answer = String(result.finalOutput ?? '');
  say(log, `${result.lastAgent?.name} (the run's last agent): "${answer}"`);
  return { handedOffTo, caseSummary, lastAgent: result.lastAgent?.name ?? '', answer };
}
