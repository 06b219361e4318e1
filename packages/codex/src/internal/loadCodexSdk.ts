import { UserError } from '@baton/core';
import type { CodexSdkModule } from '../codexSdkTypes.js';

/** The errors saying the SDK is missing: the tool lets them fail the run instead of telling the model. */
const missingSdkErrors = new WeakSet<Error>();

export function isMissingCodexSdkError(error: unknown): boolean {
  return error instanceof Error && missingSdkErrors.has(error);
}

/**
 * `@openai/codex-sdk` is an optional peer dependency: it is loaded on the first call, and its
 * absence is an error saying what to install.
 */
export async function loadCodexSdk(load: () => Promise<CodexSdkModule> = () => import('@openai/codex-sdk')): Promise<CodexSdkModule> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(message).includes('@openai/codex-sdk');
    if (missing) {
      const missingSdk = new UserError('The Codex tool needs the Codex SDK: install it beside @baton/codex with `npm install @openai/codex-sdk`.');
      missingSdkErrors.add(missingSdk);
      throw missingSdk;
    }
    throw error;
  }
}
