import { describe, expect, it } from 'vitest';
import { sdks } from './sdks.js';

/**
 * `applyDiff` on both SDKs: the same content for every diff that applies, an error for every diff
 * that does not (Baton's messages name the hunk; the reference's differ in wording, so only the
 * fact of the error is compared).
 */
type Outcome = { ok: true; value: string } | { ok: false };

function outcome(apply: () => string): Outcome {
  try {
    return { ok: true, value: apply() };
  } catch {
    return { ok: false };
  }
}

const both = (input: string, diff: string, mode?: 'default' | 'create') =>
  sdks.map(({ sdk }) => outcome(() => (mode ? sdk.applyDiff(input, diff, mode) : sdk.applyDiff(input, diff))));

const cases: Array<[name: string, input: string, diff: string, mode?: 'create']> = [
  ['create', '', '+a\n+\n+b\n', 'create'],
  ['create with a bad line', '', '+a\nb\n', 'create'],
  ['create stops at the end of the patch', '', '+a\n*** End Patch\nx\n', 'create'],
  ['replace under an anchor', 'def f():\n    return 1\n', '@@ def f():\n-    return 1\n+    return 2\n'],
  ['no anchor at the top', 'a\nb\nc\n', ' a\n-b\n+B\n'],
  ['trailing whitespace fuzz', 'x = 1   \ny\n', ' x = 1\n-y\n+z\n'],
  ['surrounding whitespace fuzz', '    x = 1\ny\n', ' x = 1\n-y\n+z\n'],
  ['nested anchors', 'class A:\n  def f():\n    pass\nclass B:\n  def f():\n    pass\n', '@@ class B:\n@@   def f():\n-    pass\n+    return 1\n'],
  ['missing nested anchor', 'class A:\n  pass\n', '@@ class C:\n@@ x\n-  pass\n'],
  ['end of file', 'end\nmid\nend\n', ' end\n+after\n*** End of File\n'],
  ['CRLF file', 'a\r\nb\r\n', ' a\n-b\n+c\n'],
  ['mixed endings', 'a\r\nb\n', ' a\n-b\n+c\n'],
  ['CRLF diff', 'a\nb\n', ' a\r\n-b\r\n+c\r\n'],
  ['context not found', 'one\ntwo\n', '@@ one\n-three\n'],
  ['bad line', 'a\n', ' a\n*a\n'],
  ['marker line', 'a\n', '@@ a\n*** Begin Patch\n'],
  ['empty section', 'a\n', '@@ a\n'],
  ['second section without @@', 'a\nb\n', ' a\n-b\n+c\n*** End of File\n a\n'],
  ['text after the end of the patch', 'a\nb\n', ' a\n-b\n+c\n*** End Patch\ngarbage\n'],
  ['anchor seen before the cursor', 'x\na\nx\nb\n', '@@ x\n-a\n+A\n@@ x\n-b\n+B\n'],
  ['empty diff', 'a\n', ''],
];

describe('applyDiff (side by side with @openai/agents)', () => {
  it.each(cases)('%s', (_name, input, diff, mode) => {
    const [reference, baton] = both(input, diff, mode);
    expect(baton).toEqual(reference);
  });

  it('agrees on generated diffs, most of which apply', () => {
    let seed = 20_260_822;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed % n;
    };
    const words = ['a', 'b', ' a', 'a ', 'def f():', '', '  x', 'return 1'];
    const pick = <T>(list: T[]) => list[next(list.length)]!;
    let applied = 0;
    for (let round = 0; round < 3_000; round += 1) {
      const file = Array.from({ length: 1 + next(8) }, () => pick(words));
      const input = file.join(next(4) ? '\n' : '\r\n') + (next(2) ? '\n' : '');
      const diff: string[] = [];
      let at = 0;
      for (let section = 0, sections = 1 + next(3); section < sections; section += 1) {
        for (let k = next(3); k > 0; k -= 1) diff.push(next(3) ? `@@ ${pick(file)}` : '@@');
        at = Math.min(file.length, at + next(3));
        for (let k = next(5); k > 0 && at < file.length; k -= 1, at += 1) {
          const line = next(10) ? file[at]! : pick(words);
          const kind = next(6);
          if (kind < 3) diff.push(` ${line}`);
          else if (kind < 5) diff.push(`-${line}`);
          else {
            diff.push(`+${pick(words)}`);
            at -= 1;
          }
        }
        if (next(6) === 0) diff.push('*** End of File');
      }
      const [reference, baton] = both(input, `${diff.join('\n')}\n`);
      expect(baton, JSON.stringify({ input, diff })).toEqual(reference);
      if (reference!.ok) applied += 1;
    }
    expect(applied).toBeGreaterThan(500);
  });
});
