/**
 * How a README's code blocks are checked in the project its install lines made: each block is written
 * as an ES module (`.mts`, as published) and as a CommonJS module (`.cts`: its imports become
 * `require` calls, the rest runs in an async function), type-checked with `tsc --strict`
 * (`skipLibCheck: false`), then run with what its `// comments` say it prints checked.
 *
 * Type-checking `skipLibCheck: false` reads every declaration installed (effect's alone are large),
 * so it is done in as few `tsc` programs as can be faithful: projects whose ambient types (the
 * `node_modules/@types` packages that declare globals, which a project sees without importing them)
 * are the same share one program, with those types. Each file still resolves its imports from its own project's `node_modules`; a package
 * installed at the same version in several projects is read and checked once (TypeScript keeps one
 * copy of a package id). A block's errors fail that block only; an error in an installed
 * declaration file fails the blocks of every project that has that file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

export interface Block {
  /** Unique among all blocks checked together: names its files (`<id>.mts`, `<id>.cts`). */
  id: string;
  /** The folder the block's imports resolve from (its `node_modules`). */
  project: string;
  code: string;
}

export type ModuleKind = 'esm' | 'cjs';

/** The file a block is written to, and the one `tsc` emits from it. */
export function blockFile(block: Block, kind: ModuleKind, emitted = false): string {
  const extension = kind === 'esm' ? (emitted ? 'mjs' : 'mts') : emitted ? 'cjs' : 'cts';
  return join(block.project, `${block.id}.${extension}`);
}

/**
 * The block as a CommonJS module: its top-level imports and ambient `declare`s kept on top
 * (TypeScript turns the imports into `require` calls in a `.cts`), everything else in an async
 * function (CommonJS has no top-level await), and `export` dropped from declarations and export
 * lists (a script's exports are not what it shows). The block is parsed, so an `import` line inside
 * a string (a script the block writes to disk) stays where it is. A rejection of that function is
 * unhandled, so the process fails as the ES module would.
 */
export function asCommonJs(code: string): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const hoisted: string[] = [];
  const cuts: Array<{ start: number; end: number }> = [];
  for (const statement of source.statements) {
    const start = statement.getStart(source);
    const end = endOfLineComment(code, statement.end);
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement) || modifiers.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)) {
      hoisted.push(code.slice(start, end));
      cuts.push({ start, end });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined) {
      cuts.push({ start, end });
    } else {
      // `export` (and `default` after it) off a declaration: the modifiers and the space after them.
      const dropped = modifiers.filter((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword);
      for (const modifier of dropped) cuts.push({ start: modifier.getStart(source), end: skipSpaces(code, modifier.end) });
    }
  }
  let body = '';
  let at = 0;
  for (const cut of cuts.sort((a, b) => a.start - b.start)) {
    body += code.slice(at, cut.start);
    at = cut.end;
  }
  body += code.slice(at);
  return `${hoisted.join('\n')}\n\nasync function main(): Promise<void> {\n${body}\n}\nvoid main();\n`;
}

/** `end`, moved past a `// comment` that follows on the same line (it belongs to the statement). */
function endOfLineComment(code: string, end: number): number {
  const rest = /^[ \t]*(?:\/\/[^\n]*)?/.exec(code.slice(end))![0];
  return end + (rest.trim() === '' ? 0 : rest.length);
}

function skipSpaces(code: string, at: number): number {
  while (code[at] === ' ' || code[at] === '\t') at++;
  return at;
}

/** Writes each block as `<id>.mts` and `<id>.cts` in its project. */
export function writeBlocks(blocks: Block[]): void {
  for (const block of blocks) {
    mkdirSync(block.project, { recursive: true });
    writeFileSync(blockFile(block, 'esm'), block.code);
    writeFileSync(blockFile(block, 'cjs'), asCommonJs(block.code));
  }
}

/**
 * A project's ambient types: the `node_modules/@types` packages (with their versions) that declare
 * globals or ambient modules (`declare global`, `declare module 'x'`, a script file), which every
 * file of the project sees without importing them. A package of module declarations only
 * (`@types/pg`, `@types/json-schema`) is seen through imports, resolved from each file's own
 * project, so it does not change what a block sees.
 */
function ambientTypes(project: string): string[] {
  const folder = join(project, 'node_modules', '@types');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => !name.startsWith('.') && declaresGlobals(join(folder, name)))
    .map((name) => `${name}@${(JSON.parse(readFileSync(join(folder, name, 'package.json'), 'utf8')) as { version: string }).version}`)
    .sort();
}

function declaresGlobals(dir: string): boolean {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && declaresGlobals(path)) return true;
    } else if (/\.d\.[cm]?ts$/.test(entry.name)) {
      const text = readFileSync(path, 'utf8');
      if (/^\s*declare\s+(?:global\b|module\s+['"])/m.test(text) || !/^\s*(?:import|export)\b/m.test(text)) return true;
    }
  }
  return false;
}

function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout: number): Promise<{ code: number | string; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout }, (error, stdout, stderr) => {
      const code = error === null ? 0 : ((error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean }).killed ? 'timed out' : ((error as { code?: number | string }).code ?? 1));
      resolvePromise({ code, stdout, stderr });
    });
  });
}

export interface TypeCheckResult {
  /** The `tsc` errors of each block file (absolute path), empty when it type-checks. */
  errors: Map<string, string[]>;
  /** One entry per `tsc` program: its projects, files and how long it took. */
  programs: Array<{ projects: string[]; files: number; seconds: number }>;
}

/**
 * Type-checks every block, ES module and CommonJS, with `tsc --strict` and `skipLibCheck: false`,
 * emitting `.mjs` / `.cjs` beside each (emitted even when some block has errors, so the others run).
 */
export async function typeCheck(blocks: Block[], folder: string, options: { concurrency?: number; timeout?: number } = {}): Promise<TypeCheckResult> {
  const groups = new Map<string, Block[]>();
  for (const block of blocks) {
    const key = JSON.stringify(ambientTypes(block.project));
    groups.set(key, [...(groups.get(key) ?? []), block]);
  }
  const errors = new Map<string, string[]>();
  const programs: TypeCheckResult['programs'] = [];
  const limit = limiter(options.concurrency ?? 2);
  await Promise.all(
    [...groups.values()].map((group, index) =>
      limit(async () => {
        const started = Date.now();
        const dir = join(folder, `tsc-${index + 1}`);
        mkdirSync(dir, { recursive: true });
        const files = group.flatMap((block) => [blockFile(block, 'esm'), blockFile(block, 'cjs')]);
        // The ambient types these projects have (the same for all of them), from the first one.
        const types = ambientTypes(group[0]!.project).map((entry) => entry.slice(0, entry.lastIndexOf('@')));
        const compilerOptions = {
          strict: true,
          skipLibCheck: false,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmitOnError: false,
          typeRoots: [join(group[0]!.project, 'node_modules', '@types')],
          types,
        };
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
        const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], dir, process.env, options.timeout ?? 900_000);
        programs.push({ projects: [...new Set(group.map((block) => block.project))], files: files.length, seconds: (Date.now() - started) / 1000 });
        const byFile = parseDiagnostics(result.stdout, dir);
        // An error in an installed declaration file: every project that has that file (TypeScript
        // reports it once, at the first copy it read); one outside any project: every project.
        const projects = [...new Set(group.map((block) => block.project))];
        const byProject = new Map<string, string[]>(projects.map((project) => [project, []]));
        for (const [file, messages] of byFile) {
          if (files.includes(file)) continue;
          const owner = projects.find((project) => file.startsWith(`${project}${sep}`));
          const affected = owner === undefined ? projects : projects.filter((project) => project === owner || existsSync(join(project, relative(owner, file))));
          for (const project of affected) byProject.get(project)!.push(...messages.map((message) => `${file}: ${message}`));
        }
        if (result.code !== 0 && byFile.size === 0) for (const list of byProject.values()) list.push(`tsc exited with ${result.code}:\n${result.stdout}${result.stderr}`);
        for (const block of group) {
          for (const file of [blockFile(block, 'esm'), blockFile(block, 'cjs')]) errors.set(file, [...(byFile.get(file) ?? []), ...byProject.get(block.project)!]);
        }
      }),
    ),
  );
  return { errors, programs };
}

/** `file(line,col): error TS…: message` lines (and their indented continuations), by absolute file. */
function parseDiagnostics(output: string, cwd: string): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of output.split('\n')) {
    const match = /^(.+?)\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(line);
    if (match) {
      const file = resolve(cwd, match[1]!);
      last = byFile.get(file) ?? [];
      byFile.set(file, last);
      last.push(`line ${match[2]}: ${match[4]}`);
    } else if (/^error TS\d+/.test(line)) {
      last = byFile.get('(global)') ?? [];
      byFile.set('(global)', last);
      last.push(line);
    } else if (line.startsWith(' ') && last !== undefined) {
      last[last.length - 1] += `\n${line}`;
    }
  }
  return byFile;
}

/**
 * What a `// comment` promises is printed: its words up to the first comma, `: `, ` ... ` or ` — `,
 * after which a comment may explain (`4: two user messages, two answers`) or abbreviate
 * (`a ... z`).
 */
export function commentHead(comment: string): string {
  return comment.split(/,|: | \.\.\. | — /)[0]!.trim();
}

/** `console.log(x); // expected` lines: what the block says it prints, in order. */
export function expectedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\);[ \t]*\/\/ (.+)$/gm)].map((m) => m[1]!.trim());
}

export interface RunResult {
  stdout: string;
  stderr: string;
  /** What is wrong: a failed exit, a promised line not printed. Empty when the block did what it says. */
  problems: string[];
  seconds: number;
}

/**
 * Runs a block's emitted module in its project and checks its output: each `// comment` of a
 * `console.log` line must begin a printed line (its head, `commentHead`: comments may explain or
 * abbreviate), in order.
 */
export async function runBlock(block: Block, kind: ModuleKind, env: NodeJS.ProcessEnv, timeout = 120_000): Promise<RunResult> {
  const started = Date.now();
  const file = blockFile(block, kind, true);
  const problems: string[] = [];
  if (!existsSync(file)) {
    return { stdout: '', stderr: '', problems: [`${relative(block.project, file)} was not emitted (type-check first)`], seconds: 0 };
  }
  const { code, stdout, stderr } = await run(process.execPath, [file], block.project, env, timeout);
  if (code !== 0) problems.push(`node ${relative(block.project, file)} exited with ${code}:\n${stderr.slice(-4000)}`);
  const lines = stdout.split('\n').map((line) => line.trim());
  let from = 0;
  for (const expected of expectedOutput(block.code)) {
    const head = commentHead(expected);
    const at = lines.findIndex((line, index) => index >= from && line.startsWith(head));
    if (at === -1) problems.push(`"${expected}" not printed (after what was already matched):\n${stdout}`);
    else from = at + 1;
  }
  return { stdout, stderr, problems, seconds: (Date.now() - started) / 1000 };
}

/** At most `slots` of the given works at a time. */
export function limiter(slots: number): <T>(work: () => Promise<T>) => Promise<T> {
  const waiting: Array<() => void> = [];
  let free = slots;
  return async (work) => {
    if (free === 0) await new Promise<void>((resolveSlot) => waiting.push(resolveSlot));
    else free -= 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    }
  };
}
