import { UserError } from '@baton/types';
import { typeName } from '@baton/core/internal';
import { scan, type Detector, type Finding } from './findings.js';

/** The longest text (in UTF-16 code units, `text.length`) `secretsCheck` and `piiCheck` inspect by default. */
export const DEFAULT_MAX_INSPECTED_CHARS = 1_000_000;

/** The kind of the one finding reported for a text longer than the limit, which is not inspected. */
export const TOO_LONG_TO_INSPECT = 'too_long_to_inspect';

/** A positive integer, or `Infinity` for no limit; the default when unset. */
export function maxInspectedCharsOption(value: unknown, owner: string): number {
  if (value === undefined) return DEFAULT_MAX_INSPECTED_CHARS;
  if (value === Infinity || (typeof value === 'number' && Number.isInteger(value) && value >= 1)) return value;
  throw new UserError(`${owner}: \`maxInspectedChars\` must be a positive integer or Infinity, got ${typeof value === 'number' ? String(value) : typeName(value)}.`);
}

/**
 * The detectors' findings in `text`, or, when the text is longer than `limit`, one finding of kind
 * `too_long_to_inspect` covering all of it: a text that was not read is not let through as clean.
 */
export function findWithinLimit(text: string, detectors: readonly Detector[], limit: number): Finding[] {
  return text.length > limit ? [{ kind: TOO_LONG_TO_INSPECT, start: 0, end: text.length }] : scan(text, detectors);
}
