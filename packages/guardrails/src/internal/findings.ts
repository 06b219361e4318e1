/** One sensitive span found in a text. The matched text itself is never part of a finding. */
export interface Finding {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

/** A pattern for one kind of sensitive data. `group` selects the sensitive part of a match (default: all of it). */
export interface PatternDetector {
  readonly kind: string;
  readonly pattern: RegExp;
  readonly group?: number;
  /** A further test on the sensitive text (a checksum, an entropy bound). */
  readonly accept?: (text: string) => boolean;
}

/** A detector that finds its spans itself (where one regular expression would backtrack over the whole text). */
export interface SpanDetector {
  readonly kind: string;
  /** The spans found, earliest first, not overlapping each other. */
  readonly find: (text: string) => Iterable<{ start: number; end: number }>;
}

export type Detector = PatternDetector | SpanDetector;

/**
 * Every detector's findings, earliest first; where two overlap, the one of the earlier detector is
 * kept. Linear in the number of findings: each detector's spans come in order, so they are checked
 * against the spans kept so far with one forward walk, then merged in.
 */
export function scan(text: string, detectors: readonly Detector[]): Finding[] {
  let kept: Finding[] = [];
  for (const detector of detectors) {
    const fresh: Finding[] = [];
    let next = 0; // the first kept span that may still overlap the current one
    for (const span of spansOf(text, detector)) {
      while (next < kept.length && kept[next]!.end <= span.start) next++;
      if (next < kept.length && kept[next]!.start < span.end) continue;
      fresh.push({ kind: detector.kind, start: span.start, end: span.end });
    }
    kept = mergeByStart(kept, fresh);
  }
  return kept;
}

function* spansOf(text: string, detector: Detector): Iterable<{ start: number; end: number }> {
  if ('find' in detector) {
    yield* detector.find(text);
    return;
  }
  const flags = detector.pattern.flags.includes('g') ? detector.pattern.flags : `${detector.pattern.flags}g`;
  for (const match of text.matchAll(new RegExp(detector.pattern.source, flags))) {
    const part = detector.group === undefined ? match[0] : match[detector.group];
    if (part === undefined || part === '') continue;
    if (detector.accept && !detector.accept(part)) continue;
    const start = match.index + (detector.group === undefined ? 0 : match[0].indexOf(part));
    yield { start, end: start + part.length };
  }
}

function mergeByStart(a: Finding[], b: Finding[]): Finding[] {
  if (b.length === 0) return a;
  const out: Finding[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]!.start <= b[j]!.start) ? a[i++]! : b[j++]!);
  return out;
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
