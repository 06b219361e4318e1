import type { ModelSettings } from './modelSettings.js';

/** The environment variable that names the default model (as in the reference). */
export const OPENAI_DEFAULT_MODEL_ENV_VARIABLE_NAME = 'OPENAI_DEFAULT_MODEL';

/** The reference 0.20.0's default model, used when an agent and the run name none. */
const DEFAULT_MODEL = 'gpt-5.6-luna';

/** Chat aliases of GPT-5 models take no reasoning settings. */
const CHAT_ALIASES = /^gpt-5(?:\.[1-3])?-chat-latest$/;

/** The reasoning effort the reference applies by default, per model family (dated snapshots included). */
const DEFAULT_EFFORTS: ReadonlyArray<readonly [RegExp, 'low' | 'medium' | 'none']> = [
  [/^gpt-6-astra$/, 'low'],
  [/^gpt-5(?:-\d{4}-\d{2}-\d{2})?$/, 'low'],
  [/^gpt-5\.[12](?:-\d{4}-\d{2}-\d{2})?$/, 'none'],
  [/^gpt-5\.[24]-pro(?:-\d{4}-\d{2}-\d{2})?$/, 'medium'],
  [/^gpt-5\.2-codex$/, 'low'],
  [/^gpt-5\.3-codex$/, 'none'],
  [/^gpt-5\.4(?:-(?:mini|nano))?(?:-\d{4}-\d{2}-\d{2})?$/, 'none'],
  [/^gpt-5\.5(?:-\d{4}-\d{2}-\d{2})?$/, 'none'],
  [/^gpt-5\.6$/, 'none'],
  [/^gpt-5\.6-(?:sol|terra|luna)(?:-\d{4}-\d{2}-\d{2})?$/, 'none'],
];

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.[name];
}

/** The default model's name: `OPENAI_DEFAULT_MODEL` (lower-cased) when set, else the reference's default. */
export function getDefaultModel(): string {
  return environment(OPENAI_DEFAULT_MODEL_ENV_VARIABLE_NAME)?.trim().toLowerCase() || DEFAULT_MODEL;
}

/** Whether a model name is a GPT-5 model that takes reasoning settings. */
export function gpt5ReasoningSettingsRequired(modelName: string): boolean {
  return !CHAT_ALIASES.test(modelName) && modelName.startsWith('gpt-5');
}

/** Whether a model name is a GPT-5-or-newer reasoning model. */
export function isGpt5OrNewerReasoningModel(modelName: string): boolean {
  if (CHAT_ALIASES.test(modelName)) return false;
  const version = /^gpt-(\d+)(?:\.\d+)?(?:-|$)/.exec(modelName);
  return version !== null && Number(version[1]) >= 5;
}

/** Whether the default model is a GPT-5 model. */
export function isGpt5Default(): boolean {
  return gpt5ReasoningSettingsRequired(getDefaultModel());
}

export function isGpt5OrNewerDefault(): boolean {
  return isGpt5OrNewerReasoningModel(getDefaultModel());
}

/**
 * The settings the reference applies to a model (the default model when none is named): low text
 * verbosity and the family's default reasoning effort for GPT-5-or-newer models, nothing otherwise.
 */
export function getDefaultModelSettings(model?: string): ModelSettings {
  const name = model ?? getDefaultModel();
  if (!isGpt5OrNewerReasoningModel(name)) return {};
  const effort = DEFAULT_EFFORTS.find(([pattern]) => pattern.test(name))?.[1];
  return effort === undefined ? { text: { verbosity: 'low' } } : { reasoning: { effort }, text: { verbosity: 'low' } };
}
