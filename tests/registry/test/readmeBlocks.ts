/**
 * What a README or a docs guide offers a user: its install lines and its code blocks. A block's info
 * string says what it is:
 *
 * - ```ts            complete: installed as the document says, type-checked and run
 * - ```ts no-run     complete but needs something the test does not have (a key, a service):
 *                    type-checked, not run
 * - ```ts sketch     a fragment: skipped (any language, e.g. ```js sketch)
 *
 * A guide includes its samples from docs/samples with VitePress's `<<< @/samples/name.ts`; the same
 * words go in its braces: `<<< @/samples/name.ts{ts no-run}`, `<<< @/samples/name.ts{ts sketch}`.
 * Fences indented inside a list item count as well.
 */
import { builtinModules } from 'node:module';

export interface CodeBlock {
  language: string;
  code: string;
  run: boolean;
  /** 1-based line of the opening fence (or of the include). */
  line: number;
  /** The sample file an include names (`@/samples/name.ts`), for an included block. */
  source?: string;
}

export interface Readme {
  installLines: string[][];
  blocks: CodeBlock[];
}

export interface ParseOptions {
  /**
   * Which shell blocks give the install lines: the first that has any (a README, whose later shell
   * blocks are other walk-throughs), or every one in order (a guide, followed top to bottom in one
   * project, each section adding what it uses).
   */
  installs?: 'first' | 'all';
  /** Reads an included sample (`@/samples/name.ts`); without it, includes are not blocks. */
  include?: (path: string) => string;
}

const FENCE = /^( *)```([^\n]*)\n([\s\S]*?)^\1```[ \t]*$/gm;
const INCLUDE = /^<<<\s*(@\/[^\s{[]+)(?:\{([^}]*)\})?[^\n]*$/gm;
const CODE_LANGUAGES = ['ts', 'js', 'typescript', 'javascript'];

export function parseReadme(text: string, options: ParseOptions = {}): Readme {
  const found: CodeBlock[] = [];
  const installGroups: string[][][] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(FENCE)) {
    const indent = match[1]!.length;
    const [language = '', ...words] = match[2]!.trim().split(/\s+/);
    const code = match[3]!
      .split('\n')
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join('\n');
    if (language === 'sh' || language === 'bash') {
      const lines = installCommands(code);
      if (lines.length > 0) installGroups.push(lines);
      continue;
    }
    if (!CODE_LANGUAGES.includes(language) || words.includes('sketch')) continue;
    found.push({ language, code, run: !words.includes('no-run'), line: lineOf(match.index) });
  }
  if (options.include !== undefined) {
    for (const match of text.matchAll(INCLUDE)) {
      const source = match[1]!;
      const [language = source.slice(source.lastIndexOf('.') + 1), ...words] = (match[2] ?? '').trim().split(/\s+/).filter((word) => word !== '' && !/^\d/.test(word));
      if (!CODE_LANGUAGES.includes(language) || words.includes('sketch')) continue;
      found.push({ language, code: options.include(source), run: !words.includes('no-run'), line: lineOf(match.index), source });
    }
  }
  const installLines = options.installs === 'all' ? installGroups.flat() : (installGroups[0] ?? []);
  return { installLines, blocks: found.sort((a, b) => a.line - b.line) };
}

/** `npm install a b  # comment` lines (with `\` continuations) as argument lists. */
function installCommands(script: string): string[][] {
  const joined = script.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => /^npm (install|i|add)\b/.test(line))
    .map((line) => line.split(/\s+/).slice(2));
}

/** The package an install argument names: `zod`, `@scope/name@^1`, `alias@npm:@scope/name@1` → the name it is imported by. */
export function installedName(arg: string): string {
  const at = arg.indexOf('@', arg.startsWith('@') ? 1 : 0);
  return at === -1 ? arg : arg.slice(0, at);
}

/** The packages a document's install lines add (flags aside), by the names code imports them with. */
export function installedPackages(installLines: string[][]): Set<string> {
  return new Set(installLines.flat().filter((arg) => !arg.startsWith('-')).map(installedName));
}

/** One key per distinct set of packages installed: documents with the same key can share one project. */
export function installKey(installLines: string[][]): string {
  return [...new Set(installLines.flat().filter((arg) => !arg.startsWith('-')))].sort().join(' ');
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?(['"])([^'"\n]+)\1|\b(?:import|require)\(\s*(['"])([^'"\n]+)\3\s*\)/gm;

/**
 * The packages a block imports (bare specifiers, by package name: `@baton/testing/contract` →
 * `@baton/testing`), Node's own modules aside. Comment lines are not code.
 */
export function importedPackages(code: string): Set<string> {
  const uncommented = code
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\*|\/\*)/.test(line))
    .join('\n');
  const names = new Set<string>();
  for (const match of uncommented.matchAll(SPECIFIER)) {
    const specifier = match[2] ?? match[4]!;
    if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (builtinModules.includes(name)) continue;
    names.add(name);
  }
  return names;
}
