import { UserError } from '@baton/types';
import { requireFunction } from './validate.js';

interface GuardrailOptions<I, O> {
  inputGuardrails?: I[] | undefined;
  outputGuardrails?: O[] | undefined;
}

interface GuardrailLists<I, O> {
  inputGuardrails?: I[];
  outputGuardrails?: O[];
}

/**
 * A tool's `inputGuardrails` / `outputGuardrails` checked at definition time (each an array of
 * `{ name: string, run: function }`, a `UserError` naming the tool and the entry otherwise), as the
 * fields to spread into the tool: only those given.
 */
export function checkedToolGuardrails<I, O>(owner: string, options: GuardrailOptions<I, O>): GuardrailLists<I, O> {
  const out: GuardrailLists<I, O> = {};
  for (const field of ['inputGuardrails', 'outputGuardrails'] as const) {
    const list = options[field] as unknown;
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new UserError(`${owner}: \`${field}\` must be an array.`);
    list.forEach((guardrail: { name?: unknown; run?: unknown } | null, i) => {
      if (typeof guardrail !== 'object' || guardrail === null || typeof guardrail.name !== 'string') {
        throw new UserError(`${owner}: \`${field}[${i}]\` must have a string \`name\`.`);
      }
      requireFunction(guardrail.run, `${owner}: \`${field}[${i}]\` ("${guardrail.name}") \`run\``);
    });
    (out as Record<string, unknown>)[field] = list;
  }
  return out;
}
