/**
 * How a README or a guide is read (no registry): which shell blocks give its install lines, which
 * code blocks are complete, run or skipped, what an included sample is, what a block imports and
 * what an install line installs.
 */
import { describe, expect, it } from 'vitest';
import { commentHead } from './blockRunner.js';
import { importedPackages, installKey, installedPackages, parseReadme } from './readmeBlocks.js';

const guide = [
  '# A guide',
  '```sh',
  'npm install @baton/core zod   # the agent',
  'npm install --save-dev @baton/testing',
  '```',
  '<<< @/samples/offline.ts',
  '<<< @/samples/keyed.ts{ts no-run}',
  '<<< @/samples/fragment.ts{ts sketch}',
  '```sh',
  'npm run build',
  'npm install @baton/tracing \\',
  '  @opentelemetry/api',
  '```',
  '1. A list item with a fence inside:',
  '',
  '   ```ts sketch',
  '   expect(x).toBe(1);',
  '   ```',
  '',
  '   ```ts',
  '   const indented = 1;',
  '     console.log(indented);',
  '   ```',
  '```text',
  'not code',
  '```',
].join('\n');

describe('reading a document', () => {
  const included: string[] = [];
  const read = (installs: 'first' | 'all') =>
    parseReadme(guide, {
      installs,
      include: (path) => {
        included.push(path);
        return `// ${path}\n`;
      },
    });

  it('takes the install lines of its first install block (a README) or of all of them in order (a guide)', () => {
    expect(read('first').installLines).toEqual([['@baton/core', 'zod'], ['--save-dev', '@baton/testing']]);
    expect(read('all').installLines).toEqual([['@baton/core', 'zod'], ['--save-dev', '@baton/testing'], ['@baton/tracing', '@opentelemetry/api']]);
  });

  it('includes samples as blocks, no-run ones type-checked only, sketches skipped, fences in list items dedented', () => {
    const { blocks } = read('all');
    expect(blocks.map(({ line, run, source, code }) => ({ line, run, source, code }))).toEqual([
      { line: 6, run: true, source: '@/samples/offline.ts', code: '// @/samples/offline.ts\n' },
      { line: 7, run: false, source: '@/samples/keyed.ts', code: '// @/samples/keyed.ts\n' },
      { line: 20, run: true, source: undefined, code: 'const indented = 1;\n  console.log(indented);\n' },
    ]);
    expect(included).not.toContain('@/samples/fragment.ts');
  });

  it('without an include reader, includes are not blocks (a README)', () => {
    expect(parseReadme(guide).blocks.map((block) => block.line)).toEqual([20]);
  });
});

describe('imports and installs', () => {
  it('names the packages a block imports, Node modules, relative paths and comments aside', () => {
    const code = [
      "// Before: import { Agent } from '@openai/agents';",
      "import { Agent, run } from '@baton/core';",
      "import { describeModelContract } from '@baton/testing/contract';",
      "import type { Span } from '@baton/tracing';",
      "import Database from 'better-sqlite3';",
      "import { createServer } from 'node:http';",
      "import { readFileSync } from 'fs';",
      "import './local.js';",
      "export { pipe } from 'effect/Function';",
      "const z = await import('zod');",
      "const { Pool } = require('pg');",
    ].join('\n');
    expect([...importedPackages(code)].sort()).toEqual(['@baton/core', '@baton/testing', '@baton/tracing', 'better-sqlite3', 'effect', 'pg', 'zod']);
  });

  it('names what install lines add, by the names code imports (versions, aliases and flags aside)', () => {
    const lines = [['@baton/core@0.2.0', 'zod', 'core-v1@npm:@baton/core@0.1.0'], ['--save-dev', '@types/better-sqlite3']];
    expect([...installedPackages(lines)].sort()).toEqual(['@baton/core', '@types/better-sqlite3', 'core-v1', 'zod']);
  });

  it('gives documents installing the same packages, in any order or grouping, one install key', () => {
    expect(installKey([['@baton/core', 'zod'], ['--save-dev', '@baton/testing']])).toBe(installKey([['zod'], ['@baton/testing', '@baton/core']]));
    expect(installKey([['@baton/core', 'zod']])).not.toBe(installKey([['@baton/core']]));
  });
});

describe('what a comment promises is printed', () => {
  it('is its head: up to a comma, ": ", " ... " or " — "', () => {
    expect(commentHead('Lisbon is sunny, 21°C.')).toBe('Lisbon is sunny');
    expect(commentHead('4: two user messages, two answers')).toBe('4');
    expect(commentHead('research raw_model_stream_event ... research run_item_stream_event')).toBe('research raw_model_stream_event');
    expect(commentHead('Input guardrail triggered: {"reason":"math homework"}')).toBe('Input guardrail triggered');
    expect(commentHead('approve cancel_order({"orderId":42})?')).toBe('approve cancel_order({"orderId":42})?');
  });
});
