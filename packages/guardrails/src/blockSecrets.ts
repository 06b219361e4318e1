import type { CheckToolInputGuardrailOptions } from './check.js';
import type { ToolInputGuardrailDefinition } from './defineToolInputGuardrail.js';
import { secretsCheck, type SecretsCheckOptions } from './checks/secrets.js';
import type { GuardedToolCall } from './internal/toolCallSubject.js';

export type BlockSecretsOptions = Omit<SecretsCheckOptions, 'name' | 'rejectMessage'> & CheckToolInputGuardrailOptions;

/**
 * The `block_secrets` tool input guardrail: a call whose arguments (or, on a local tool, whose
 * commands, patch or typed text) hold a secret or API key is not run, and the model is told
 * "Remove secrets before calling this tool." (or `message`).
 */
export function blockSecrets(options: BlockSecretsOptions = {}): ToolInputGuardrailDefinition<unknown, GuardedToolCall> {
  const { name, behavior, message, ...check } = options;
  const guardrail: CheckToolInputGuardrailOptions = { name: name ?? 'block_secrets' };
  if (behavior !== undefined) guardrail.behavior = behavior;
  if (message !== undefined) guardrail.message = message;
  return secretsCheck(check).toolInputGuardrail(guardrail);
}
