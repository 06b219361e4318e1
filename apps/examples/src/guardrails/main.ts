/** Runs every guardrail example offline, on scripted models. `pnpm --filter @baton/examples guardrails` */
import { consoleLog } from './log.js';
import { mathHomeworkExample } from './mathHomework.js';
import { mathHomeworkFromAgentExample } from './mathHomeworkFromAgent.js';
import { phoneNumberExample } from './phoneNumber.js';
import { readyMadeToolGuardrailsExample } from './readyMadeToolGuardrails.js';
import { toolGuardrailsExample } from './toolGuardrails.js';

const examples = [
  ['Math homework input guardrail (checker agent, blocking)', mathHomeworkExample],
  ['Math homework with guardrailFromAgent (parallel, aborts the model)', mathHomeworkFromAgentExample],
  ['Phone number output guardrail', phoneNumberExample],
  ['block_secrets / redact_output tool guardrails', toolGuardrailsExample],
  ['Ready-made blockSecrets() / redactOutput()', readyMadeToolGuardrailsExample],
] as const;

for (const [title, example] of examples) {
  consoleLog(`\n== ${title}`);
  await example(consoleLog);
}
