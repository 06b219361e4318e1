import { UserError } from '@baton/types';
import { defineCheck, type GuardrailCheck } from '../check.js';

export interface MaxLengthCheckOptions {
  /** The most characters (Unicode code points) allowed. */
  maxChars: number;
  name?: string;
  rejectMessage?: string;
}

export interface MaxLengthCheckInfo {
  length: number;
  maxChars: number;
}

/**
 * Trips when the text is longer than `maxChars` code points. For a run input that is the text of
 * its messages; for structured values, their JSON. As a tool output guardrail it truncates.
 */
export function maxLengthCheck(options: number | MaxLengthCheckOptions): GuardrailCheck<MaxLengthCheckInfo> {
  const settings = typeof options === 'number' ? { maxChars: options } : options;
  if (typeof settings !== 'object' || settings === null || !Number.isInteger(settings.maxChars) || settings.maxChars < 1) {
    throw new UserError('maxLengthCheck: `maxChars` must be a positive integer.');
  }
  const { maxChars } = settings;
  return defineCheck({
    name: settings.name ?? 'max_length',
    rejectMessage: settings.rejectMessage ?? `The input is too long (at most ${maxChars} characters).`,
    inspect: ({ text }) => {
      const chars = [...text];
      const info = { length: chars.length, maxChars };
      return chars.length <= maxChars ? { tripped: false, info } : { tripped: true, info, redacted: chars.slice(0, maxChars).join('') };
    },
  });
}
