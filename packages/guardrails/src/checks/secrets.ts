import { UserError } from '@baton/types';
import { defineCheck, type GuardrailCheck } from '../check.js';
import { countByKind, entropy, redact, type Detector, type Finding } from '../internal/findings.js';
import { findWithinLimit, maxInspectedCharsOption } from '../internal/inspectionLimit.js';
import { privateKeyBlocks } from '../internal/privateKeyBlocks.js';
import { optionalPositiveNumber, typeName } from '@baton/core/internal';

export type SecretKind =
  | 'private_key'
  | 'openai_api_key'
  | 'aws_access_key_id'
  | 'aws_secret_access_key'
  | 'github_token'
  | 'bearer_token'
  | 'generic_secret';

export const SECRET_KINDS: readonly SecretKind[] = [
  'private_key',
  'openai_api_key',
  'aws_access_key_id',
  'aws_secret_access_key',
  'github_token',
  'bearer_token',
  'generic_secret',
];

export interface SecretsCheckOptions {
  name?: string;
  /** Which kinds to look for. Defaults to all of them. */
  kinds?: readonly SecretKind[];
  /** Extra patterns of your own (their whole match is the secret). */
  patterns?: ReadonlyArray<{ kind: string; pattern: RegExp }>;
  /** Bits per character a bearer token or `key = value` secret must reach. Defaults to 3.5. */
  minEntropy?: number;
  /**
   * The longest text inspected, in UTF-16 code units (`text.length`). Defaults to 1,000,000. A
   * longer text is not inspected: the check trips with one finding of kind `too_long_to_inspect`
   * covering the whole text (redacted, it becomes `[REDACTED:too_long_to_inspect]`). `Infinity`
   * inspects any length (the detectors are linear in the text).
   */
  maxInspectedChars?: number;
  rejectMessage?: string;
}

export interface SecretsCheckInfo {
  /** The kinds found, in order of first appearance. */
  detected: string[];
  counts: Record<string, number>;
  /** Where each secret is (never what it is). */
  findings: Finding[];
}

/** At least two of lower case, upper case, digits: random tokens have them, words do not. */
function mixed(text: string): boolean {
  return [/[a-z]/, /[A-Z]/, /\d/].filter((re) => re.test(text)).length >= 2;
}

function detectors(minEntropy: number): Record<SecretKind, Detector> {
  const highEntropy = (token: string) => mixed(token) && entropy(token) >= minEntropy;
  return {
    // From a BEGIN header to the first END marker after it (or the header alone), found in one pass.
    private_key: { kind: 'private_key', find: privateKeyBlocks },
    openai_api_key: {
      kind: 'openai_api_key',
      pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/,
      accept: (key) => /\d/.test(key) && /[A-Za-z]/.test(key.slice(3)),
    },
    aws_access_key_id: { kind: 'aws_access_key_id', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}(?![A-Z0-9])/ },
    aws_secret_access_key: {
      kind: 'aws_secret_access_key',
      pattern: /aws_?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/i,
      group: 1,
    },
    github_token: { kind: 'github_token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})(?![A-Za-z0-9_])/ },
    bearer_token: { kind: 'bearer_token', pattern: /\bBearer\s+([A-Za-z0-9\-._~+/]{20,}=*)/i, group: 1, accept: highEntropy },
    generic_secret: {
      kind: 'generic_secret',
      pattern: /\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|password|passwd)\b["']?\s*[:=]\s*["']?([A-Za-z0-9\-._~+/]{16,}=*)/i,
      group: 1,
      accept: highEntropy,
    },
  };
}

/**
 * Finds secrets and API keys: private key blocks, OpenAI keys (`sk-...`), AWS access key ids
 * (`AKIA...`) and secret keys, GitHub tokens (`ghp_...`, `github_pat_...`), high-entropy bearer
 * tokens and `api_key = ...` style assignments. Redacts them as `[REDACTED:<kind>]`. The work is linear
 * in the text (for your own `patterns`, as linear as they are); texts longer than
 * `maxInspectedChars` trip without being inspected.
 */
export function secretsCheck(options: SecretsCheckOptions = {}): GuardrailCheck<SecretsCheckInfo> {
  const owner = 'secretsCheck';
  const minEntropy = optionalPositiveNumber(options.minEntropy, `${owner}: \`minEntropy\``) ?? 3.5;
  const limit = maxInspectedCharsOption(options.maxInspectedChars, owner);
  const kinds: readonly SecretKind[] = options.kinds ?? SECRET_KINDS;
  if (!Array.isArray(kinds as unknown) || kinds.length === 0) throw new UserError(`${owner}: \`kinds\` must be a non-empty array.`);
  const all = detectors(minEntropy);
  const chosen: Detector[] = kinds.map((kind) => {
    if (!(kind in all)) throw new UserError(`${owner}: unknown secret kind ${JSON.stringify(kind)}; known: ${SECRET_KINDS.join(', ')}.`);
    return all[kind];
  });
  for (const [i, extra] of (options.patterns ?? []).entries()) {
    if (typeof extra?.kind !== 'string' || !(extra.pattern instanceof RegExp)) {
      throw new UserError(`${owner}: \`patterns[${i}]\` must be { kind: string, pattern: RegExp }, got ${typeName(extra)}.`);
    }
    chosen.push({ kind: extra.kind, pattern: extra.pattern });
  }
  return defineCheck({
    name: options.name ?? 'secrets',
    rejectMessage: options.rejectMessage ?? 'Remove secrets before calling this tool.',
    inspect: ({ text }) => {
      const findings = findWithinLimit(text, chosen, limit);
      const info = { detected: [...new Set(findings.map((f) => f.kind))], counts: countByKind(findings), findings };
      return findings.length === 0 ? { tripped: false, info } : { tripped: true, info, redacted: redact(text, findings) };
    },
  });
}
