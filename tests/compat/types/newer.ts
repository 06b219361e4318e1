// Typing the run options, helpers and classes added for the compatibility issue's follow-up:
// retries with retryPolicies, input staged on a paused run, nested resume strategies, the
// reasoning id policy, the blocked-output placeholder, the Conversations session, protocol
// schemas, the logger and the tool guardrail helpers.
import { z } from 'zod';
import {
  Agent,
  OpenAIConversationsSession,
  RunContext,
  getLogger,
  protocol,
  retryPolicies,
  run,
  runToolInputGuardrails,
  setSensitiveDataLoggingEnabled,
  startOpenAIConversationsSession,
  tool,
  type RetryPolicy,
} from 'sdk';

const custom: RetryPolicy = ({ attempt, normalized }) => attempt < 3 && (normalized.statusCode === 503 || normalized.isNetworkError);

const pay = tool({ name: 'pay', description: 'pay', parameters: z.object({ to: z.string() }), needsApproval: true, execute: ({ to }) => `paid ${to}` });

const agent = new Agent({
  name: 'Banker',
  tools: [pay],
  modelSettings: { retry: { maxRetries: 2, backoff: { initialDelayMs: 100, jitter: false }, policy: retryPolicies.any(retryPolicies.httpStatus([429, 503]), custom) } },
});

const accountant = new Agent({ name: 'Accountant', tools: [pay] });
const nested = accountant.asTool({ toolName: 'accountant', toolDescription: 'pays', resumeState: { contextStrategy: 'preferSerialized' } });
void nested;

export async function staged(): Promise<void> {
  const paused = await run(agent, 'pay bob', { reasoningItemIdPolicy: 'omit', outputGuardrailBlockedMessage: ({ guardrailName }) => `${guardrailName} withheld it` });
  paused.state.addInput('also pay carol');
  const pending: unknown[] = paused.state.pendingInput;
  void pending;
  for (const item of paused.interruptions) paused.state.approve(item);
  await run(agent, paused.state);

  const session = new OpenAIConversationsSession({ conversationId: await startOpenAIConversationsSession() });
  await run(agent, 'hello', { session });
  const id: string | undefined = session.sessionId;
  void id;

  const item = protocol.ModelItem.parse({ role: 'user', content: 'hi' });
  void item;
  const logger = getLogger('my-app');
  logger.debug('ready', { dontLog: logger.dontLogModelData });
  setSensitiveDataLoggingEnabled(false);

  const verdict = await runToolInputGuardrails({
    guardrails: [],
    context: new RunContext({}),
    agent,
    toolCall: { type: 'function_call', callId: 'c1', name: 'pay', arguments: '{}' },
  });
  void verdict.type;
}
