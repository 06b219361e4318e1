import { ApplyDiffError } from '../applyDiffError.js';
import type { DiffSection, SectionEdit } from './v4aSections.js';

/**
 * Places a diff's sections in a file: each section's anchors move a cursor forward, then its
 * context is looked for from the cursor, exactly first, then ignoring trailing whitespace, then
 * ignoring surrounding whitespace. The result is the edits in file line numbers, in order.
 */

type Normalize = (line: string) => string;
const comparisons: Normalize[] = [(line) => line, (line) => line.trimEnd(), (line) => line.trim()];
const exact = comparisons[0]!;
const trimmed = comparisons[2]!;

const anchorsOf = (section: DiffSection) => section.anchors.map((anchor) => `"@@ ${anchor}"`).join(', ');

export function placeSections(fileLines: string[], sections: DiffSection[]): SectionEdit[] {
  const placed: SectionEdit[] = [];
  let cursor = 0;
  for (const section of sections) {
    if (section.anchorLineCount === 0 && cursor !== 0) {
      throw new ApplyDiffError('only the first section may omit its "@@" line', section.number);
    }
    const mustMatch = section.anchorLineCount > 1;
    section.anchors.forEach((anchor, index) => {
      cursor = seekAnchor(fileLines, anchor, cursor, index > 0, mustMatch, section);
    });
    const start = findContext(fileLines, section.context, cursor, section.atEndOfFile);
    if (start === -1) {
      const where = section.atEndOfFile ? 'at the end of the file' : `at or after line ${cursor + 1}`;
      const after = section.anchors.length ? ` (after ${anchorsOf(section)})` : '';
      throw new ApplyDiffError(`its lines were not found ${where}${after}:\n${section.context.join('\n')}`, section.number);
    }
    for (const edit of section.edits) placed.push({ ...edit, at: edit.at + start });
    cursor = start + section.context.length;
  }
  return placed;
}

/**
 * Moves the cursor past the anchor's line. An anchor already seen before the cursor counts as found
 * (unless it is a later anchor of the same section, which must come after the one before it).
 */
function seekAnchor(lines: string[], anchor: string, cursor: number, forwardOnly: boolean, mustMatch: boolean, section: DiffSection): number {
  for (const normalize of [exact, trimmed]) {
    const wanted = normalize(anchor);
    const matches = (line: string) => normalize(line) === wanted;
    if (!forwardOnly && lines.slice(0, cursor).some(matches)) return cursor;
    const ahead = lines.findIndex((line, index) => index >= cursor && matches(line));
    if (ahead !== -1) return ahead + 1;
  }
  if (mustMatch) throw new ApplyDiffError(`anchor "@@ ${anchor}" was not found after line ${cursor}`, section.number);
  return cursor;
}

function findContext(lines: string[], context: string[], cursor: number, atEndOfFile: boolean): number {
  if (!atEndOfFile) return scan(lines, context, cursor);
  // A final newline leaves an empty last line; the section's end is the line before it.
  const body = lines.length > 1 && lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
  const atEnd = scan(body, context, Math.max(0, body.length - context.length));
  return atEnd !== -1 ? atEnd : scan(body, context, Math.min(cursor, body.length));
}

function scan(lines: string[], context: string[], from: number): number {
  if (context.length === 0) return from;
  for (const normalize of comparisons) {
    for (let start = from; start + context.length <= lines.length; start += 1) {
      if (context.every((line, offset) => normalize(lines[start + offset]!) === normalize(line))) return start;
    }
  }
  return -1;
}

/** Applies placed edits to the file's lines; edits must not overlap. */
export function applyEdits(fileLines: string[], edits: SectionEdit[]): string[] {
  const result: string[] = [];
  let position = 0;
  for (const edit of edits) {
    if (edit.at > fileLines.length) throw new ApplyDiffError(`an edit at line ${edit.at + 1} is past the end of the file (${fileLines.length} lines)`);
    if (edit.at < position) throw new ApplyDiffError(`an edit at line ${edit.at + 1} overlaps the previous one (which ends at line ${position})`);
    result.push(...fileLines.slice(position, edit.at), ...edit.insert);
    position = edit.at + edit.remove;
  }
  result.push(...fileLines.slice(position));
  return result;
}
