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
  noEffectBarrel: IForbiddenRuleType;
  options: Record<string, unknown>;
};

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One cruise of the whole graph (no module left out, type imports included) against every rule. */
async function check(baseDir: string): Promise<IViolation[]> {
  const output = await cruise(['packages'], {
    ...rules.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: [rules.resolvable, ...rules.packageRules, ...rules.layerRules, rules.noCycles, rules.noEffectBarrel] },
  } as never);
  return (output.output as ICruiseResult).summary.violations;
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

  it("a runtime import of Effect's root entry, but not a type-only one", async () => {
    /** A repository with an `effect` package whose root is `dist/index.js`, and one source file. */
    const withEffect = async (source: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'baton-architecture-'));
      fixtures.push(dir);
      mkdirSync(join(dir, 'node_modules/effect/dist'), { recursive: true });
      writeFileSync(join(dir, 'node_modules/effect/package.json'), JSON.stringify({ name: 'effect', exports: { '.': './dist/index.js' } }));
      writeFileSync(join(dir, 'node_modules/effect/dist/index.js'), 'export const Effect = {};\n');
      mkdirSync(join(dir, 'packages/demo/src'), { recursive: true });
      writeFileSync(join(dir, 'packages/demo/src/a.ts'), source);
      return (await check(dir)).map((v) => v.rule.name);
    };
    expect(await withEffect("import { Effect } from 'effect';\nexport const a = Effect;\n")).toContain('no-effect-barrel');
    expect(await withEffect("import type { Effect } from 'effect';\nexport type A = typeof Effect;\n")).not.toContain('no-effect-barrel');
  });

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

  it('agent.ts reaching the engine, even through the agent-tool module alone', async () => {
    expect(
      await violationsOf({
        'packages/core/src/definitions/agent.ts': ['../engine/internal/agentTool.js'],
        'packages/core/src/engine/internal/agentTool.ts': ['../runner.js'],
        'packages/core/src/engine/runner.ts': [],
      }),
    ).toContain('core-definitions-below-state');
  });

  it('a cycle through type imports inside one layer, and one crossing the layers', async () => {
    // agent.asTool()'s options naming RunConfig, whose callbacks name Agent: every edge is allowed
    // by the layer rules, so only the cycle rule (cruising the whole graph) sees it.
    const dir = mkdtempSync(join(tmpdir(), 'baton-architecture-'));
    fixtures.push(dir);
    const files: Record<string, string> = {
      'definitions/agent.ts': "import type { AgentAsToolOptions } from './agentTool.js';\nexport interface Agent { asTool(o: AgentAsToolOptions): void }\n",
      'definitions/agentTool.ts': "import type { RunConfig } from './runConfig.js';\nexport interface AgentAsToolOptions { runConfig?: RunConfig }\n",
      'definitions/runConfig.ts': "import type { CallModelInputFilter } from './callModelInputFilter.js';\nexport interface RunConfig { f?: CallModelInputFilter }\n",
      'definitions/callModelInputFilter.ts': "import type { Agent } from './agent.js';\nexport type CallModelInputFilter = (agent: Agent) => void;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, 'packages/core/src', path)), { recursive: true });
      writeFileSync(join(dir, 'packages/core/src', path), text);
    }
    const violations = await check(dir);
    expect(violations.map((v) => v.rule.name)).toEqual(['no-circular']);
    expect(violations[0]!.cycle!.map((step) => step.name).sort()).toEqual(Object.keys(files).map((path) => `packages/core/src/${path}`).sort());
    // Across layers: state importing the engine breaks the layer rule and closes a cycle.
    expect(
      await violationsOf({
        'packages/core/src/engine/runner.ts': ['../state/runState.js'],
        'packages/core/src/state/runState.ts': ['../engine/runner.js'],
      }),
    ).toEqual(expect.arrayContaining(['core-state-below-engine', 'no-circular']));
  });

  it('a provider importing core, and a feature package importing another feature package', async () => {
    expect(await violationsOf({ 'packages/openai-provider/src/x.ts': ['../../core/src/agent.js'], 'packages/core/src/agent.ts': [] })).toContain(
      'package-openai-provider',
    );
    expect(await violationsOf({ 'packages/mcp/src/x.ts': ['../../guardrails/src/y.js'], 'packages/guardrails/src/y.ts': [] })).toContain('package-new-feature');
    expect(await violationsOf({ 'packages/guardrails/src/y.ts': ['../../mcp/src/x.js'], 'packages/mcp/src/x.ts': [] })).toContain('package-depends-on-new');
  });
});
