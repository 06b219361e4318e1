import { isGpt5OrNewerDefault, isGpt5OrNewerReasoningModel, type ModelSettings } from '@baton/types';

/**
 * GPT-5 defaults must not reach an older model named explicitly (by the agent or the run), which
 * would refuse `reasoning.effort` or `text.verbosity`: they are stripped, as the reference does.
 */
export function settingsForModel(settings: ModelSettings, modelName: string | undefined, explicitlySet: boolean): ModelSettings {
  if (!explicitlySet || modelName === undefined || isGpt5OrNewerReasoningModel(modelName) || !isGpt5OrNewerDefault()) return settings;
  if (!settings.reasoning && !settings.text) return settings;
  const out: ModelSettings = { ...settings };
  if (settings.reasoning) {
    const { effort: _effort, summary: _summary, ...reasoning } = settings.reasoning;
    if (Object.keys(reasoning).length > 0) out.reasoning = reasoning;
    else delete out.reasoning;
  }
  if (settings.text) {
    const { verbosity: _verbosity, ...text } = settings.text;
    if (Object.keys(text).length > 0) out.text = text;
    else delete out.text;
  }
  return out;
}
