import { UserError, type ModelRequest } from '@baton/types';

/** Warns on the console once per model and kind, as the reference's logger does. */
export type WarnOnce = (kind: string, message: string) => void;

/**
 * What a Chat Completions request cannot carry: server-managed conversation state
 * (`previousResponseId`, `conversationId`), a stored prompt, `reasoning.mode` / `reasoning.context`.
 * With `strict` each is a `UserError`; otherwise it is ignored with one warning, as the reference
 * does.
 */
export function checkUnsupportedFeatures(request: ModelRequest, strict: boolean, warnOnce: WarnOnce): void {
  const state = [request.previousResponseId ? 'previousResponseId' : undefined, request.conversationId ? 'conversationId' : undefined].filter(Boolean);
  if (state.length > 0) {
    report(
      strict,
      warnOnce,
      'conversation-state',
      `OpenAIChatCompletionsModel does not support server-managed conversation state (${state.join(', ')}). Chat Completions requires callers to pass the full conversation history; use a Responses API model for previousResponseId or a conversation-capable model for conversationId.`,
      'Ignoring unsupported server-managed conversation state',
    );
  }
  if (request.prompt) {
    report(
      strict,
      warnOnce,
      'prompt',
      'Reusable prompts are only supported by the Responses API. OpenAIChatCompletionsModel does not support prompt; use a Responses model instead.',
      'Ignoring prompt',
    );
  }
  const reasoning = request.modelSettings.reasoning as Record<string, unknown> | undefined;
  const unsupported = reasoning ? ['mode', 'context'].filter((name) => reasoning[name] !== undefined && reasoning[name] !== null) : [];
  if (unsupported.length > 0) {
    report(
      strict,
      warnOnce,
      'reasoning',
      `OpenAIChatCompletionsModel does not support ${unsupported.map((name) => `reasoning.${name}`).join(', ')}. These reasoning settings require the Responses API; Chat Completions only uses reasoning.effort.`,
      'Ignoring unsupported reasoning settings',
    );
  }
}

function report(strict: boolean, warnOnce: WarnOnce, kind: string, message: string, ignoring: string): void {
  if (strict) throw new UserError(message);
  warnOnce(kind, `${message} ${ignoring}; enable strict feature validation to raise an error instead.`);
}
