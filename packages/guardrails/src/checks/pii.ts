import { UserError } from '@baton/types';
import { defineCheck, type GuardrailCheck } from '../check.js';
import { countByKind, luhnValid, redact, type Detector, type Finding } from '../internal/findings.js';
import { findWithinLimit, maxInspectedCharsOption } from '../internal/inspectionLimit.js';

export type PiiKind = 'email' | 'phone' | 'card_number';

export const PII_KINDS: readonly PiiKind[] = ['card_number', 'email', 'phone'];

export interface PiiCheckOptions {
  name?: string;
  /** Which kinds to look for. Defaults to all of them. */
  kinds?: readonly PiiKind[];
  /**
   * The longest text inspected, in UTF-16 code units (`text.length`). Defaults to 1,000,000. A
   * longer text is not inspected: the check trips with one finding of kind `too_long_to_inspect`
   * covering the whole text (redacted, it becomes `[REDACTED:too_long_to_inspect]`). `Infinity`
   * inspects any length (the detectors are linear in the text).
   */
  maxInspectedChars?: number;
  rejectMessage?: string;
}

export interface PiiCheckInfo {
  detected: string[];
  counts: Record<string, number>;
  /** Where each finding is (never what it is). */
  findings: Finding[];
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

// Card numbers come first so that their digit groups are not also reported as phone numbers.
const DETECTORS: Record<PiiKind, Detector> = {
  card_number: {
    kind: 'card_number',
    // 16 digits in groups of four, Amex's 4-6-5, or an unbroken run of 13 to 19 digits.
    pattern: /(?<![\d-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}|\d{4}([ -])\d{6}\2\d{5}|\d{13,19})(?![\d])/,
    accept: (text) => {
      const digits = digitsOf(text);
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits);
    },
  },
  email: {
    kind: 'email',
    pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/,
  },
  phone: {
    kind: 'phone',
    // International (+country code, 8 to 15 digits), or North American with separators:
    // 650-555-0101, (650) 555-0101, 650.555.0101, +1 650 555 0101.
    pattern: /(?<![\w+])(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}|(?:1[ .-])?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4})(?![\w])/,
    accept: (text) => {
      const digits = digitsOf(text).length;
      return text.startsWith('+') ? digits >= 8 && digits <= 15 : digits >= 10 && digits <= 11;
    },
  },
};

/**
 * Finds common personal data: email addresses, phone numbers (international `+...` numbers and
 * North American numbers written with separators) and payment card numbers that pass the Luhn
 * check. Redacts them as `[REDACTED:<kind>]`. The work is linear in the text; texts longer than
 * `maxInspectedChars` trip without being inspected.
 */
export function piiCheck(options: PiiCheckOptions = {}): GuardrailCheck<PiiCheckInfo> {
  const kinds: readonly PiiKind[] = options.kinds ?? PII_KINDS;
  if (!Array.isArray(kinds as unknown) || kinds.length === 0) throw new UserError('piiCheck: `kinds` must be a non-empty array.');
  for (const kind of kinds) {
    if (!(kind in DETECTORS)) throw new UserError(`piiCheck: unknown kind ${JSON.stringify(kind)}; known: ${PII_KINDS.join(', ')}.`);
  }
  const limit = maxInspectedCharsOption(options.maxInspectedChars, 'piiCheck');
  const chosen = PII_KINDS.filter((kind) => kinds.includes(kind)).map((kind) => DETECTORS[kind]);
  return defineCheck({
    name: options.name ?? 'pii',
    rejectMessage: options.rejectMessage ?? 'Remove personal data (emails, phone numbers, card numbers) before calling this tool.',
    inspect: ({ text }) => {
      const findings = findWithinLimit(text, chosen, limit);
      const info = { detected: [...new Set(findings.map((f) => f.kind))], counts: countByKind(findings), findings };
      return findings.length === 0 ? { tripped: false, info } : { tripped: true, info, redacted: redact(text, findings) };
    },
  });
}
