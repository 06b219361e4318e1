import { Runner, type RunConfig } from '@baton/core';
import { OpenAIProvider, type OpenAIProviderOptions } from '@baton/openai-provider';

export interface ResponsesWebSocketSessionOptions {
  /** Options of the session's `OpenAIProvider` (it always uses the Responses API over a WebSocket). */
  providerOptions?: Omit<OpenAIProviderOptions, 'useResponses' | 'useResponsesWebSocket'>;
  /** Options of the session's `OpenAIResponsesWSModel` sockets. */
  responsesWebSocketOptions?: OpenAIProviderOptions['responsesWebSocketOptions'];
  /** The session runner's configuration (its model provider is the session's). */
  runnerConfig?: Omit<RunConfig, 'modelProvider'>;
}

export interface ResponsesWebSocketSession {
  provider: OpenAIProvider;
  runner: Runner;
  /** `runner.run`, bound. */
  run: Runner['run'];
}

/**
 * Runs `callback` with a provider whose Responses models keep one WebSocket per model across the
 * turns of every run in it (the reference's `withResponsesWebSocketSession`), and closes the
 * sockets when it settles. A failure to close is thrown when the callback succeeded, else attached
 * to the callback's error (`cause`, or `cleanupError` when it has a cause already).
 */
export async function withResponsesWebSocketSession<T>(
  callback: (session: ResponsesWebSocketSession) => T | Promise<T>,
  options: ResponsesWebSocketSessionOptions = {},
): Promise<T> {
  const responsesWebSocketOptions = options.responsesWebSocketOptions ?? options.providerOptions?.responsesWebSocketOptions;
  const provider = new OpenAIProvider({
    ...options.providerOptions,
    useResponses: true,
    useResponsesWebSocket: true,
    ...(responsesWebSocketOptions !== undefined ? { responsesWebSocketOptions } : {}),
  });
  const runner = new Runner({ ...options.runnerConfig, modelProvider: provider });
  const run = runner.run.bind(runner) as Runner['run'];
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await callback({ provider, runner, run }) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  try {
    await provider.close();
  } catch (closeError) {
    if (outcome.ok) throw closeError;
    if (outcome.error instanceof Error) {
      const withCleanup = outcome.error as Error & { cleanupError?: unknown };
      if (withCleanup.cause === undefined) withCleanup.cause = closeError;
      else withCleanup.cleanupError = closeError;
    }
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
