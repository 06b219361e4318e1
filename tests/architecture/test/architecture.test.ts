import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType, type IViolation } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../dependency-rules.cjs') as {
  packageRule: Record<string, string[] | '*'>;
  resolvable: IForbiddenRuleType;
  packageRules: IForbiddenRuleType[];
  layerRules: IForbiddenRuleType[];
  noCycles: IForbiddenRuleType;
  asToolEdge: { from: string; to: string };
  options: Record<string, unknown>;
};

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const agentToolModule = rules.asToolEdge.to;

/**
 * Two cruises: the package and layer rules over the whole graph, and the cycle rule over the graph
 * without the agent-tool module, the one place an upward edge (asTool → runner) is allowed. The
 * layer rules keep every other path into that module out, so no other cycle can hide behind it.
 */
async function check(baseDir: string): Promise<IViolation[]> {
  const run = async (forbidden: IForbiddenRuleType[], exclude: string[]): Promise<IViolation[]> => {
    const options = rules.options as { exclude: { path: string[] } };
    const output = await cruise(['packages'], {
      ...rules.options,
      exclude: { path: [...options.exclude.path, ...exclude] },
      baseDir,
      validate: true,
      ruleSet: { forbidden },
    } as never);
    return (output.output as ICruiseResult).summary.violations;
  };
  return [...(await run([rules.resolvable, ...rules.packageRules, ...rules.layerRules], [])), ...(await run([rules.noCycles], [agentToolModule]))];
}

const describeViolation = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' → ')})` : ''}`;

describe('the repository', () => {
  it('has no import cycle in any package, keeps the folders of core layered and follows the dependency rule', async () => {
    const violations = await check(repo);
    expect(violations.map(describeViolation)).toEqual([]);
  });

  it('declares only the workspace dependencies the dependency rule allows', () => {
    const problems: string[] = [];
    for (const dir of readdirSync(join(repo, 'packages'))) {
      const manifest = JSON.parse(readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const allowed = rules.packageRule[dir] ?? ['core', 'types'];
      if (allowed === '*') continue;
      for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        if (name.startsWith('@baton/') && !allowed.includes(name.slice('@baton/'.length))) problems.push(`${dir} depends on ${name}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the rules catch', () => {
  const fixtures: string[] = [];
  afterAll(() => fixtures.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A throwaway repository with these source files (path → imports). */
  async function violationsOf(files: Record<string, string[]>): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), 'baton-architecture-'));
    fixtures.push(dir);
    for (const [path, imports] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      const lines = imports.map((target, i) => `import { x as x${i} } from '${target}';`);
      writeFileSync(join(dir, path), `${lines.join('\n')}\nexport const x = 1;\n`);
    }
    return (await check(dir)).map((v) => v.rule.name);
  }

  it('an import that does not resolve', async () => {
    expect(await violationsOf({ 'packages/demo/src/a.ts': ['@baton/not-built-yet'] })).toContain('resolvable');
  });

  it('a runtime import cycle, and a cycle through type imports only', async () => {
    expect(await violationsOf({ 'packages/demo/src/a.ts': ['./b.js'], 'packages/demo/src/b.ts': ['./a.js'] })).toContain('no-circular');
    const dir = mkdtempSync(join(tmpdir(), 'baton-architecture-'));
    fixtures.push(dir);
    mkdirSync(join(dir, 'packages/demo/src'), { recursive: true });
    writeFileSync(join(dir, 'packages/demo/src/a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'packages/demo/src/b.ts'), "import type { A } from './a.js';\nexport interface B { a: A }\n");
    expect((await check(dir)).map((v) => v.rule.name)).toContain('no-circular');
  });

  it('core state reaching the engine, definitions reaching state, providers reaching definitions, and an unlayered core file', async () => {
    expect(
      await violationsOf({ 'packages/core/src/state/runState.ts': ['../engine/runner.js'], 'packages/core/src/engine/runner.ts': [] }),
    ).toContain('core-state-below-engine');
    expect(
      await violationsOf({ 'packages/core/src/definitions/tool.ts': ['../state/internal/runRecord.js'], 'packages/core/src/state/internal/runRecord.ts': [] }),
    ).toContain('core-definitions-below-state');
    expect(
      await violationsOf({ 'packages/core/src/providers/multiProvider.ts': ['../definitions/agent.js'], 'packages/core/src/definitions/agent.ts': [] }),
    ).toContain('core-providers-at-the-bottom');
    expect(await violationsOf({ 'packages/core/src/surprise.ts': ['./definitions/agent.js'], 'packages/core/src/definitions/agent.ts': [] })).toContain(
      'core-unlayered',
    );
    // Downward edges are fine.
    expect(
      await violationsOf({
        'packages/core/src/engine/runner.ts': ['../state/runState.js', '../definitions/agent.js', '../providers/modelProvider.js'],
        'packages/core/src/state/runState.ts': ['../definitions/agent.js'],
        'packages/core/src/definitions/agent.ts': ['../providers/modelProvider.js'],
        'packages/core/src/providers/modelProvider.ts': [],
      }),
    ).toEqual([]);
  });

  it('agent.ts reaching the engine other than through the agent-tool module', async () => {
    const ok = await violationsOf({
      'packages/core/src/definitions/agent.ts': ['../engine/internal/agentTool.js'],
      'packages/core/src/engine/internal/agentTool.ts': ['../runner.js'],
      'packages/core/src/engine/runner.ts': ['../definitions/agent.js'],
    });
    expect(ok).toEqual([]);
    expect(
      await violationsOf({ 'packages/core/src/definitions/agent.ts': ['../engine/runner.js'], 'packages/core/src/engine/runner.ts': [] }),
    ).toContain('core-asTool-edge-only');
  });

  it('a provider importing core, and a feature package importing another feature package', async () => {
    expect(await violationsOf({ 'packages/openai-provider/src/x.ts': ['../../core/src/agent.js'], 'packages/core/src/agent.ts': [] })).toContain(
      'package-openai-provider',
    );
    expect(await violationsOf({ 'packages/mcp/src/x.ts': ['../../guardrails/src/y.js'], 'packages/guardrails/src/y.ts': [] })).toContain('package-new-feature');
    expect(await violationsOf({ 'packages/guardrails/src/y.ts': ['../../mcp/src/x.js'], 'packages/mcp/src/x.ts': [] })).toContain('package-depends-on-new');
  });
});
