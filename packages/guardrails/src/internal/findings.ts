/** One sensitive span found in a text. The matched text itself is never part of a finding. */
export interface Finding {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** A pattern for one kind of sensitive data. `group` selects the sensitive part of a match (default: all of it). */
export interface Detector {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly group?: number;
  /** A further test on the sensitive text (a checksum, an entropy bound). */
  readonly accept?: (text: string) => boolean;
}

/** Every detector's matches, earliest first; overlapping matches keep the one found first in detector order. */
export function scan(text: string, detectors: readonly Detector[]): Finding[] {
  const found: Finding[] = [];
  for (const detector of detectors) {
    const flags = detector.pattern.flags.includes('g') ? detector.pattern.flags : `${detector.pattern.flags}g`;
    const pattern = new RegExp(detector.pattern.source, flags);
    for (const match of text.matchAll(pattern)) {
      const part = detector.group === undefined ? match[0] : match[detector.group];
      if (part === undefined || part === '') continue;
      const offset = detector.group === undefined ? 0 : match[0].indexOf(part);
      const start = match.index + offset;
      const finding = { kind: detector.kind, start, end: start + part.length };
      if (detector.accept && !detector.accept(part)) continue;
      if (found.some((other) => other.start < finding.end && finding.start < other.end)) continue;
      found.push(finding);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The text with each finding replaced by `[REDACTED:<kind>]`. */
export function redact(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const finding of findings) {
    out += `${text.slice(at, finding.start)}[REDACTED:${finding.kind}]`;
    at = finding.end;
  }
  return out + text.slice(at);
}

/** Per-kind counts, for `outputInfo`. */
export function countByKind(findings: readonly Finding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
  return counts;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The Luhn checksum used by payment card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}
