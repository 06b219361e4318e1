/**
 * What a README offers a user: its install lines (the `npm install` lines of its first shell block
 * that has any) and its code blocks. A block's info string says what it is:
 *
 * - ```ts            complete: installed as the README says, type-checked and run
 * - ```ts no-run     complete but needs something the test does not have (a key, a service):
 *                    type-checked, not run
 * - ```ts sketch     a fragment: skipped (any language, e.g. ```js sketch)
 */
export interface CodeBlock {
  language: string;
  code: string;
  run: boolean;
  /** 1-based line of the opening fence. */
  line: number;
}

export interface Readme {
  installLines: string[][];
  blocks: CodeBlock[];
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```$/gm;

export function parseReadme(text: string): Readme {
  const blocks: CodeBlock[] = [];
  let installLines: string[][] | undefined;
  for (const match of text.matchAll(FENCE)) {
    const [language = '', ...words] = match[1]!.trim().split(/\s+/);
    const line = text.slice(0, match.index).split('\n').length;
    const code = match[2]!;
    if (language === 'sh' || language === 'bash') {
      if (installLines === undefined) {
        const lines = installCommands(code);
        if (lines.length > 0) installLines = lines;
      }
      continue;
    }
    if (!['ts', 'js', 'typescript', 'javascript'].includes(language) || words.includes('sketch')) continue;
    blocks.push({ language, code, run: !words.includes('no-run'), line });
  }
  return { installLines: installLines ?? [], blocks };
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
