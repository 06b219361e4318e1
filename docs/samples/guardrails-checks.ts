import { Agent } from '@baton/core';
import { bannedTopicsCheck, guardrailFromAgent, maxLengthCheck, piiCheck } from '@baton/guardrails';
import { z } from 'zod';

// Ready-made checks work as input, output and tool guardrails.
const pii = piiCheck({ kinds: ['email', 'phone'] });
const topics = bannedTopicsCheck({ keywords: { medical: ['diagnosis', 'prescription'] } });

// A cheap checker agent as a guardrail: its verdict becomes the guardrail's outputInfo.
const checker = new Agent({
  name: 'Homework check',
  instructions: 'Is the user asking for help with math homework?',
  model: 'gpt-5-nano',
  outputType: z.object({ isMathHomework: z.boolean() }),
});
const homework = guardrailFromAgent(checker, { name: 'math_homework', runInParallel: false, tripwire: (verdict) => verdict.isMathHomework });

export const support = new Agent({
  name: 'Support',
  model: 'gpt-4.1',
  inputGuardrails: [maxLengthCheck(4_000).inputGuardrail(), topics.inputGuardrail(), homework],
  outputGuardrails: [pii.outputGuardrail()],
});
