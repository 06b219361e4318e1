/**
 * The ranges Baton's packages give their third-party dependencies (`effect ^4.1.0`, `openai ^7.57.0`,
 * …), tested at both ends, as published: from the session's release (`npm run release` to a
 * throwaway registry), `npm install @baton/agents @baton/ai-sdk-provider zod` runs twice in empty
 * projects: once as npm resolves it (the highest version each range allows), once with every
 * third-party dependency forced to the lowest version its range allows (npm `overrides`, which
 * reach transitive dependencies; pnpm's `resolution-mode=lowest-direct` would only lower the
 * project's own direct dependencies, here the `@baton/*` packages). Each install type-checks
 * (`tsc --strict`, `skipLibCheck: false`, in the session's type-check) and runs a smoke program: an agent with a zod tool and
 * structured output, paused for an approval, serialized and resumed.
 *
 * The highest install also checks the `engines` fields: a package's `engines.node` asks for at
 * least what each of its dependencies (and theirs) asks for.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBlock, blockFile, type Block, type RunResult } from './blockRunner.js';
import { enabled, type Manifest, type RegistrySession } from './registrySession.js';
import { cleanEnv } from './userShell.js';

const INSTALLED = ['@baton/agents', '@baton/ai-sdk-provider'];

const SMOKE = `import { Agent, Runner, RunState, tool } from '@baton/agents';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/agents/testing';
import { aisdk } from '@baton/ai-sdk-provider';
import { z } from 'zod';

const refund = tool({
  name: 'refund',
  description: 'Refund an order.',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  execute: async ({ orderId }) => \`refunded \${orderId}\`,
});
const Answer = z.object({ orderId: z.string(), refunded: z.boolean() });
const model = new ScriptedModel([
  [functionCall('refund', { orderId: 'A-17' }, { callId: 'c1' })],
  [assistantMessage(JSON.stringify({ orderId: 'A-17', refunded: true }))],
]);
const agent = new Agent({ name: 'Support', model, tools: [refund], outputType: Answer });
const runner = new Runner({ tracingDisabled: true });
const paused = await runner.run(agent, 'Refund A-17.');
const state = await RunState.fromString(agent, paused.state.toString());
for (const approval of state.getInterruptions()) state.approve(approval);
const result = await runner.run(agent, state);
const answer: z.infer<typeof Answer> = result.finalOutput!;
console.log(paused.interruptions.length, answer.orderId, answer.refunded);
// The AI SDK adapter loads and wraps a model (its types against @ai-sdk/provider).
const notCalled = async (): Promise<never> => {
  throw new Error('not called');
};
const wrapped = aisdk({ specificationVersion: 'v3', provider: 'smoke', modelId: 'm', supportedUrls: {}, doGenerate: notCalled, doStream: notCalled } as unknown as Parameters<typeof aisdk>[0]);
console.log(typeof wrapped.getResponse);
`;

/** The lowest version a range allows, for the forms Baton's manifests use (`^x.y.z`, `~x.y.z`, `>=x[.y[.z]]`, `x.y.z`). */
function lowest(range: string): string {
  const match = /^(?:\^|~|>=)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`range ${JSON.stringify(range)}: not a form this test knows the lowest version of (add it to lowest())`);
  return `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

/** The lowest Node major.minor an `engines.node` range accepts (the least over `||` alternatives), or undefined for none. */
function nodeFloor(range: string | undefined): number | undefined {
  if (range === undefined || range.trim() === '' || range.trim() === '*') return undefined;
  const floors = range.split('||').map((part) => {
    const match = /(\d+)(?:\.(\d+))?/.exec(part);
    return match ? Number(match[1]) + Number(match[2] ?? 0) / 1000 : 0;
  });
  return Math.min(...floors);
}

/** Third-party dependencies of the published @baton packages, with their ranges (all ranges one dependency is given). */
const thirdParty = new Map<string, Set<string>>();

async function packument(session: RegistrySession, name: string): Promise<Manifest> {
  const response = await fetch(`${session.registry.url}${name.replace('/', '%2f')}`);
  const body = (await response.json()) as { 'dist-tags': { latest: string }; versions: Record<string, Manifest> };
  return body.versions[body['dist-tags'].latest]!;
}

/** The lowest version all of a dependency's ranges allow. */
function lowestOf(ranges: Set<string>): string {
  return [...ranges].map(lowest).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1)!;
}

type Mode = 'lowest' | 'highest';
const smokes = new Map<Mode, { project: string; block: Block; installed: Promise<void>; run: Promise<RunResult> }>();

/**
 * The two projects: installed (the lowest with every third-party dependency forced down by npm
 * `overrides`, which reach transitive dependencies; pnpm's `resolution-mode=lowest-direct` would
 * only lower the project's own direct dependencies, here the `@baton/*` packages), the smoke program
 * added to the session's type-check, then run. Call before `session.seal()`.
 */
export function prepareDependencyRanges(session: RegistrySession): void {
  const ranges = (async () => {
    const seen = new Set<string>();
    const visit = async (name: string) => {
      if (seen.has(name)) return;
      seen.add(name);
      for (const [dependency, range] of Object.entries((await packument(session, name)).dependencies ?? {})) {
        if (dependency.startsWith('@baton/')) await visit(dependency);
        else thirdParty.set(dependency, (thirdParty.get(dependency) ?? new Set()).add(range));
      }
    };
    for (const name of INSTALLED) await visit(name);
  })();
  for (const mode of ['lowest', 'highest'] as const) {
    const project = session.project(`ranges-${mode}`, { type: 'module' });
    const block: Block = { id: 'smoke', project, code: SMOKE };
    const installed = ranges.then(async () => {
      if (mode === 'lowest') {
        const overrides: Record<string, string> = {};
        for (const [dependency, given] of thirdParty) overrides[dependency] = lowestOf(given);
        // The app's own zod at the lowest too (npm wants an override of a direct dependency to point at it).
        const lowestZod = overrides.zod;
        if (lowestZod !== undefined) overrides.zod = '$zod';
        session.project(`ranges-${mode}`, { type: 'module', dependencies: { zod: lowestZod ?? 'latest' }, overrides });
      }
      await session.npmInstall(`install @baton/agents @baton/ai-sdk-provider zod at the ${mode} versions`, project, [...INSTALLED, ...(mode === 'lowest' ? [] : ['zod'])]);
    });
    installed.catch(() => {});
    session.addBlocks(installed.then(() => [block]));
    const run = installed.then(async () => {
      await session.checked;
      return session.run(() => session.timed(`run the smoke program at the ${mode} versions`, () => runBlock(block, 'esm', cleanEnv())));
    });
    run.catch(() => {});
    smokes.set(mode, { project, block, installed, run });
  }
}

function installedVersion(project: string, name: string): string {
  return (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as Manifest).version;
}

/** Type-checked (ESM and CJS, skipLibCheck: false) and run as an ES module. */
async function smoke(session: RegistrySession, mode: Mode): Promise<string> {
  const { block, installed, run } = smokes.get(mode)!;
  await installed;
  const { errors } = await session.checked;
  for (const kind of ['esm', 'cjs'] as const) expect(errors.get(blockFile(block, kind)), `the smoke program at the ${mode} versions (${kind}): tsc`).toEqual([]);
  const result = await run;
  expect(result.problems).toEqual([]);
  return result.stdout;
}

export function describeDependencyRanges(session: RegistrySession): void {
  describe.runIf(enabled)('third-party dependency ranges, at both ends, as published', () => {
    it('the lowest version of every range installs, type-checks and runs', async () => {
      const stdout = await smoke(session, 'lowest');
      expect(stdout.trim().split('\n')).toEqual(['1 A-17 true', 'function']);
      // What the override asked for is what was installed (npm may not silently pick another).
      const { project } = smokes.get('lowest')!;
      for (const [dependency, ranges] of thirdParty) {
        expect(installedVersion(project, dependency), `${dependency} (${[...ranges].join(', ')})`).toBe(lowestOf(ranges));
      }
    });

    it('the highest versions install, type-check and run, and every engines.node asks for what its dependencies need', async () => {
      const stdout = await smoke(session, 'highest');
      expect(stdout.trim().split('\n')).toEqual(['1 A-17 true', 'function']);
      const modules = join(smokes.get('highest')!.project, 'node_modules');
      const manifestOf = (name: string): Manifest | undefined => {
        const file = join(modules, name, 'package.json');
        return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;
      };
      /** The highest engines.node floor among a package's dependencies, transitively, and who sets it. */
      const needs = (name: string, seen = new Set<string>()): { floor: number; by: string } => {
        let most = { floor: 0, by: '' };
        for (const dependency of Object.keys(manifestOf(name)?.dependencies ?? {})) {
          if (seen.has(dependency)) continue;
          seen.add(dependency);
          const manifest = manifestOf(dependency);
          if (manifest === undefined) continue;
          const own = nodeFloor(manifest.engines?.node) ?? 0;
          if (own > most.floor) most = { floor: own, by: `${dependency}@${manifest.version} (engines.node ${manifest.engines!.node})` };
          const deeper = needs(dependency, seen);
          if (deeper.floor > most.floor) most = deeper;
        }
        return most;
      };
      const baton = readdirSync(join(modules, '@baton')).map((entry) => `@baton/${entry}`);
      const problems = baton.flatMap((name) => {
        const declared = manifestOf(name)!.engines?.node;
        const need = needs(name);
        return (nodeFloor(declared) ?? 0) >= need.floor ? [] : [`${name} declares engines.node ${declared ?? '(none)'}, but ${need.by} needs more`];
      });
      expect(problems).toEqual([]);
    });
  });
}
