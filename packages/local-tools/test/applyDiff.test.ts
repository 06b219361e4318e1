import { describe, expect, it } from 'vitest';
import { ApplyDiffError, applyDiff } from '../src/index.js';

const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe('applyDiff', () => {
  it('creates content from "+" lines (no final newline is added)', () => {
    expect(applyDiff('', lines('+hello', '+', '+world'), 'create')).toBe('hello\n\nworld');
    expect(applyDiff('', '', 'create')).toBe('');
  });

  it('refuses a create diff line without "+" and names it', () => {
    expect(() => applyDiff('', lines('+a', 'b'), 'create')).toThrow(new ApplyDiffError('line 2 of a new file does not start with "+": "b"'));
  });

  it('stops a create diff at the next file block of a patch', () => {
    expect(applyDiff('', lines('+a', '*** End Patch', 'ignored'), 'create')).toBe('a');
  });

  it('replaces, inserts and deletes lines around context', () => {
    const file = lines('def greet():', '    return "hi"', '', 'def part():', '    return "bye"');
    const diff = lines('@@ def greet():', '-    return "hi"', '+    return "hello"', '@@ def part():', '+    print("leaving")', '     return "bye"');
    expect(applyDiff(file, diff)).toBe(lines('def greet():', '    return "hello"', '', 'def part():', '    print("leaving")', '    return "bye"'));
  });

  it('applies a first section without an "@@" line from the top of the file', () => {
    expect(applyDiff(lines('a', 'b', 'c'), lines(' a', '-b', '+B'))).toBe(lines('a', 'B', 'c'));
  });

  it('treats an empty diff line as an empty context line', () => {
    expect(applyDiff(lines('a', '', 'c'), lines(' a', '', '-c', '+C'))).toBe(lines('a', '', 'C'));
  });

  it('matches context ignoring trailing, then surrounding whitespace', () => {
    expect(applyDiff(lines('x = 1   ', 'y = 2'), lines(' x = 1', '-y = 2', '+y = 3'))).toBe(lines('x = 1   ', 'y = 3'));
    expect(applyDiff(lines('    x = 1', 'y = 2'), lines(' x = 1', '-y = 2', '+y = 3'))).toBe(lines('    x = 1', 'y = 3'));
  });

  it('uses anchors to pick among repeated context', () => {
    const file = lines('class A:', '  value = 1', 'class B:', '  value = 1');
    expect(applyDiff(file, lines('@@ class B:', '-  value = 1', '+  value = 2'))).toBe(lines('class A:', '  value = 1', 'class B:', '  value = 2'));
  });

  it('nests anchors: each must follow the one before it, and all must exist', () => {
    const file = lines('class A:', '  def run(self):', '    pass', 'class B:', '  def run(self):', '    pass');
    const diff = lines('@@ class B:', '@@   def run(self):', '-    pass', '+    return 2');
    expect(applyDiff(file, diff)).toBe(lines('class A:', '  def run(self):', '    pass', 'class B:', '  def run(self):', '    return 2'));
    expect(() => applyDiff(file, lines('@@ class C:', '@@   def run(self):', '-    pass'))).toThrow(/hunk 1: anchor "@@ class C:" was not found/);
  });

  it('pins a section closed by "*** End of File" to the end of the file', () => {
    const file = lines('end', 'middle', 'end');
    expect(applyDiff(file, lines(' end', '+after', '*** End of File'))).toBe(lines('end', 'middle', 'end', 'after'));
  });

  it('keeps CRLF line endings when the file uses them throughout', () => {
    expect(applyDiff('a\r\nb\r\n', lines(' a', '-b', '+c'))).toBe('a\r\nc\r\n');
    expect(applyDiff('a\r\nb\n', lines(' a', '-b', '+c'))).toBe('a\r\nc\n');
  });

  it('accepts a CRLF diff', () => {
    expect(applyDiff(lines('a', 'b'), ' a\r\n-b\r\n+c\r\n')).toBe(lines('a', 'c'));
  });

  it('names the hunk whose lines are not in the file', () => {
    const file = lines('one', 'two', 'three');
    const diff = lines('@@ one', '-two', '+2', '@@ three', '-four', '+4');
    expect(() => applyDiff(file, diff)).toThrow(ApplyDiffError);
    const error = (() => {
      try {
        applyDiff(file, diff);
      } catch (e) {
        return e as ApplyDiffError;
      }
    })()!;
    expect(error.hunk).toBe(2);
    expect(error.message).toBe('Invalid diff, hunk 2: its lines were not found at or after line 4 (after "@@ three"):\nfour');
  });

  it('names malformed lines and their hunk', () => {
    expect(() => applyDiff(lines('a'), lines(' a', '*a'))).toThrow('Invalid diff, hunk 1: line "*a" starts with neither " ", "-" nor "+"');
    expect(() => applyDiff(lines('a'), lines('@@ a', '*** Begin Patch'))).toThrow('Invalid diff, hunk 1: unexpected marker line "*** Begin Patch"');
    expect(() => applyDiff(lines('a'), lines('@@ a'))).toThrow('Invalid diff, hunk 1: the section is empty (the diff ends after its @@ line)');
    expect(() => applyDiff(lines('a', 'b'), lines(' a', '-b', '+c', ' x', 'y'))).toThrow('hunk 1: line "y" starts with neither');
  });

  it('requires "@@" before every section after the first has been placed', () => {
    expect(() => applyDiff(lines('a', 'b'), lines(' a', '-b', '+c', '*** End of File', ' a'))).toThrow('Invalid diff, hunk 2: only the first section may omit its "@@" line');
  });

  it('ignores what follows the end of the patch', () => {
    expect(applyDiff(lines('a', 'b'), lines(' a', '-b', '+c', '*** End Patch', 'garbage'))).toBe(lines('a', 'c'));
  });
});
