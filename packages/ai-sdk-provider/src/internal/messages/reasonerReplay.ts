import type { ModelSettings } from '@baton/types';
import { isObject, targetIdentifier, type ModelTarget } from './modelTarget.js';

/**
 * Whether reasoning goes back bundled with the assistant turn that follows it (DeepSeek's
 * `reasoning_content`, which its API requires beside tool calls): for `deepseek-reasoner`, and for
 * other DeepSeek models when thinking is enabled in `modelSettings.providerData` (`thinking`,
 * `deepseek.thinking`, `providerOptions.thinking` or `providerOptions.deepseek.thinking`, as
 * `true`, `'enabled'` or `{ type: 'enabled' }`). Other models get reasoning as its own message.
 */
export function bundlesReasoning(model: ModelTarget, settings: ModelSettings | undefined): boolean {
  const target = targetIdentifier(model).toLowerCase();
  if (target.includes('deepseek-reasoner')) return true;
  if (!target.includes('deepseek')) return false;
  const data = settings?.providerData;
  if (!isObject(data)) return false;
  const at = (value: unknown, key: string) => (isObject(value) ? value[key] : undefined);
  const option = [data.thinking, at(data.deepseek, 'thinking'), at(data.providerOptions, 'thinking'), at(at(data.providerOptions, 'deepseek'), 'thinking')].find(
    (value) => value !== undefined,
  );
  return thinkingEnabled(option);
}

function thinkingEnabled(option: unknown): boolean {
  if (option === true) return true;
  if (typeof option === 'string') return option.toLowerCase() === 'enabled';
  if (isObject(option)) {
    const kind = option.type ?? option.mode ?? option.status;
    return typeof kind === 'string' && kind.toLowerCase() === 'enabled';
  }
  return false;
}
