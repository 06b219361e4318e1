import { ApplyDiffError } from '../applyDiffError.js';

/**
 * The syntax of a headerless V4A diff (the body of an `*** Update File:` block of apply_patch):
 * sections, each opened by zero or more `@@` anchor lines, holding ` ` (keep), `-` (delete) and
 * `+` (add) lines, optionally closed by `*** End of File`. Parsing needs no file content; placing
 * the sections in a file is `v4aPlacement.ts`.
 */

/** Lines that end the diff body: the next file block of a patch or the patch's end. */
const FILE_BLOCK_MARKERS = ['*** End Patch', '*** Update File:', '*** Delete File:', '*** Add File:'];
const END_OF_FILE = '*** End of File';

/** One change inside a section: at `at` (an index into the section's context) remove `remove` lines, insert `insert`. */
export interface SectionEdit {
  at: number;
  remove: number;
  insert: string[];
}

export interface DiffSection {
  /** 1-based, for error messages. */
  number: number;
  /** How many `@@` lines opened the section (blank ones included). */
  anchorLineCount: number;
  /** The non-blank anchor texts, in order. */
  anchors: string[];
  /** The kept and deleted lines, as they must appear in the file. */
  context: string[];
  edits: SectionEdit[];
  /** The section was closed by `*** End of File`: its context sits at the end of the file. */
  atEndOfFile: boolean;
}

/** Splits a diff into lines: CRLF or LF, without the empty line after a final newline. */
export function diffLines(diff: string): string[] {
  const lines = diff.split(/\r?\n/).map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const endsFileBlock = (line: string) => FILE_BLOCK_MARKERS.some((marker) => line.startsWith(marker));
const endsBody = (line: string) => endsFileBlock(line) || line.startsWith(END_OF_FILE);

/** The content of a created file: every line up to the next file block starts with `+`. */
export function parseCreateBody(lines: string[]): string {
  const content: string[] = [];
  for (const [index, line] of lines.entries()) {
    if (endsFileBlock(line)) break;
    if (!line.startsWith('+')) {
      throw new ApplyDiffError(`line ${index + 1} of a new file does not start with "+": ${JSON.stringify(line)}`);
    }
    content.push(line.slice(1));
  }
  return content.join('\n');
}

/** The sections of an update diff, in order. Throws `ApplyDiffError` on a malformed line. */
export function parseSections(lines: string[]): DiffSection[] {
  const sections: DiffSection[] = [];
  let at = 0;
  while (at < lines.length && !endsBody(lines[at]!)) {
    const number = sections.length + 1;
    const anchors: string[] = [];
    let anchorLineCount = 0;
    for (let line = lines[at]; line !== undefined && (line === '@@' || line.startsWith('@@ ')); line = lines[++at]) {
      anchorLineCount += 1;
      const anchor = line.slice(3);
      if (anchor.trim() !== '') anchors.push(anchor);
    }
    const bodyStart = at;
    const builder = new SectionBuilder();
    for (let line = lines[at]; line !== undefined && !line.startsWith('@@') && !endsBody(line) && line !== '***'; line = lines[++at]) {
      if (line.startsWith('***')) throw new ApplyDiffError(`unexpected marker line ${JSON.stringify(line)}`, number);
      builder.add(line === '' ? ' ' : line, number);
    }
    const atEndOfFile = lines[at] === END_OF_FILE;
    if (atEndOfFile) at += 1;
    else if (at === bodyStart) {
      const next = lines[at];
      throw new ApplyDiffError(`the section is empty${next === undefined ? ' (the diff ends after its @@ line)' : ` before ${JSON.stringify(next)}`}`, number);
    }
    sections.push({ number, anchorLineCount, anchors, ...builder.finish(), atEndOfFile });
  }
  return sections;
}

/** Collects a section's lines: context, and runs of deleted / added lines as edits. */
class SectionBuilder {
  private readonly context: string[] = [];
  private readonly edits: SectionEdit[] = [];
  private deleted = 0;
  private inserted: string[] = [];

  add(line: string, section: number): void {
    const text = line.slice(1);
    switch (line[0]) {
      case ' ':
        this.flush();
        this.context.push(text);
        return;
      case '-':
        this.deleted += 1;
        this.context.push(text);
        return;
      case '+':
        this.inserted.push(text);
        return;
      default:
        throw new ApplyDiffError(`line ${JSON.stringify(line)} starts with neither " ", "-" nor "+"`, section);
    }
  }

  finish(): { context: string[]; edits: SectionEdit[] } {
    this.flush();
    return { context: this.context, edits: this.edits };
  }

  private flush(): void {
    if (this.deleted === 0 && this.inserted.length === 0) return;
    this.edits.push({ at: this.context.length - this.deleted, remove: this.deleted, insert: this.inserted });
    this.deleted = 0;
    this.inserted = [];
  }
}
