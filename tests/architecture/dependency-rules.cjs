// The dependency rule between packages and core's three layers, as dependency-cruiser rules.
// Run by test/architecture.test.ts; by hand: `pnpm exec depcruise -c dependency-rules.cjs ../../packages/*/src`
// from tests/architecture (paths below are relative to the repository root, which the test cruises from).

/** Which workspace packages each package's source may import (besides itself). */
const packageRule = {
  types: [],
  core: ['types'],
  guardrails: ['core', 'types'],
  handoffs: ['core', 'types'],
  streaming: ['core', 'types'],
  // Sessions on SQLite / PostgreSQL, and the SQL plumbing Baton's durable stores share (/sql).
  sessions: ['core', 'types'],
  // The paused-run stores build on the sessions' SQL plumbing (compiled in: no runtime dependency).
  'hitl-state': ['core', 'types', 'sessions'],
  // Providers and the test kit depend on the contracts only.
  'openai-provider': ['types'],
  'ai-sdk-provider': ['types'],
  // Durable runs build on paused-run tooling (resumability reports, approval expiries).
  dbos: ['core', 'types', 'hitl-state'],
  testing: ['types'],
  // The local shell and editor implement contracts of types; they need nothing of the run loop.
  'local-tools': ['types'],
  // The Codex tool is a core tool() around @openai/codex-sdk.
  codex: ['core', 'types'],
  // The umbrella re-exports everything.
  agents: '*',
};
/** A package not listed above is a feature package: it may build on core and types, nothing else. */
const featureDefault = ['core', 'types'];

const core = 'packages/core/src/';

/**
 * Core's layers are its folders, bottom up. `providers/` resolves model names to models (and
 * retries them); `definitions/` is what users write agents with (the context object, run
 * options, MCP servers and hosted tools included: every definition is typed against them);
 * `state/` is what a run is and how it is stored (the run record, `RunState`, serialization,
 * sessions); `engine/` runs it (the loop, `Runner`, results, agent tools). A layer imports only
 * the layers below it and itself; `index.ts` and `packageInternals.ts` are the entry points.
 */
const layers = {
  providers: [`^${core}providers/`],
  definitions: [`^${core}definitions/`],
  state: [`^${core}state/`],
  engine: [`^${core}engine/`],
  entries: [`^${core}(index|packageInternals)\\.ts$`],
};

const packageDir = (name) => `^packages/${name}/`;
const workspacePackages = ['types', 'core', 'guardrails', 'handoffs', 'streaming', 'sessions', 'hitl-state', 'openai-provider', 'testing', 'agents'];

const packageRules = [
  ...Object.entries(packageRule)
    .filter(([, allowed]) => allowed !== '*')
    .map(([name, allowed]) => ({
      name: `package-${name}`,
      comment: `@baton/${name} may import only ${allowed.length ? allowed.map((a) => `@baton/${a}`).join(', ') : 'no other workspace package'} (the dependency rule).`,
      severity: 'error',
      from: { path: `^packages/${name}/src/` },
      to: { path: '^packages/[^/]+/', pathNot: [packageDir(name), ...allowed.map(packageDir)] },
    })),
  {
    name: 'package-new-feature',
    comment: 'A new package builds on @baton/core and @baton/types only; nothing but the umbrella and apps depends on it.',
    severity: 'error',
    // Packages with a rule of their own above follow that rule instead.
    from: { path: '^packages/([^/]+)/src/', pathNot: [...workspacePackages, ...Object.keys(packageRule)].map((name) => `^packages/${name}/`) },
    to: { path: '^packages/[^/]+/', pathNot: ['^packages/$1/', ...featureDefault.map(packageDir)] },
  },
  {
    name: 'package-depends-on-new',
    comment: 'Only the umbrella may import a package outside the known list (new feature packages).',
    severity: 'error',
    from: { path: '^packages/([^/]+)/src/', pathNot: ['^packages/agents/'] },
    to: { path: '^packages/([^/]+)/', pathNot: ['^packages/$1/', ...workspacePackages.map(packageDir)] },
  },
];

const resolvable = {
  name: 'resolvable',
  comment: 'An import that does not resolve (a workspace package not built yet?) would slip past every rule.',
  severity: 'error',
  from: { path: '^packages/[^/]+/src/' },
  to: { couldNotResolve: true },
};

const layerRules = [
  {
    name: 'core-providers-at-the-bottom',
    comment: 'Core providers (model provider, multi-provider, retry policies) import nothing else of core.',
    severity: 'error',
    from: { path: layers.providers },
    to: { path: [...layers.definitions, ...layers.state, ...layers.engine] },
  },
  {
    // No exception: `agent.asTool()` builds its tool with a factory the engine hands over when it
    // loads (definitions/agentTool.ts), and names the run types through @baton/types' registry.
    name: 'core-definitions-below-state',
    comment: 'Core definitions (agent, tool, handoff, schemas, context, run options, MCP, agent-tool options) import no state or engine module.',
    severity: 'error',
    from: { path: layers.definitions },
    to: { path: [...layers.state, ...layers.engine] },
  },
  {
    name: 'core-state-below-engine',
    comment: 'Core state (record, run state, serialization, sessions) imports no engine module.',
    severity: 'error',
    from: { path: layers.state },
    to: { path: layers.engine },
  },
  {
    name: 'core-unlayered',
    comment: "Every core source file lives in a layer's folder (providers/, definitions/, state/, engine/) or is an entry point (index.ts, packageInternals.ts).",
    severity: 'error',
    from: { path: `^${core}`, pathNot: Object.values(layers).flat() },
    to: {},
  },
];

const noCycles = {
  name: 'no-circular',
  comment: 'Modules of a package import each other in a circle (type imports count).',
  severity: 'error',
  from: { path: '^packages/[^/]+/src/' },
  to: { circular: true },
};

/**
 * Effect's root entry loads every module of the library at once: one such import in the umbrella's
 * tree cost each process about 20 MB of RSS at load (measured in `apps/bench`). Modules are imported
 * by their own paths (`effect/Effect`); a type-only import of the root loads nothing.
 */
const noEffectBarrel = {
  name: 'no-effect-barrel',
  comment: "Import Effect's modules by path (`effect/Effect`), not the `effect` root, which loads the whole library.",
  severity: 'error',
  from: { path: '^packages/[^/]+/src/' },
  to: { path: '(^|/)node_modules/effect/dist/index\\.js$', dependencyTypesNot: ['type-only'] },
};

const options = {
  // Type-only imports count: a cycle through types is still a knot.
  tsPreCompilationDeps: true,
  doNotFollow: { path: ['node_modules', '/dist/'] },
  enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  exclude: { path: ['/test/', '\\.test\\.ts$', '\\.test-d\\.ts$'] },
};

module.exports = { packageRule, layers, resolvable, packageRules, layerRules, noCycles, noEffectBarrel, options };
