import { nodeBuiltin } from './nodeBuiltin.js';

/**
 * zod 4 releases before 4.2 (the reference accepts `zod ^4.0.0`) cannot describe themselves as JSON
 * Schema: `~standard.jsonSchema` came with 4.2. zod's own `toJSONSchema` describes them, taken from
 * the app's zod (`loadZodCore`), loaded on the first such schema.
 * Before 4.2 each copy of zod keeps `describe()` and `meta()` in a registry of its own, so each
 * node's metadata is read from the schema itself, and written after its type as zod 4.2 and later
 * (and the reference) write it.
 */
type ToJsonSchema = (schema: unknown, options: Record<string, unknown>) => Record<string, unknown>;
type Describer = (options: { target: string }) => Record<string, unknown>;

let loaded: { toJSONSchema: ToJsonSchema } | null | undefined;

/** A zod 4 schema (zod's `_zod` internals) that lacks Standard JSON Schema. */
export function isLegacyZod4Schema(schema: object): boolean {
  const standard = (schema as { '~standard'?: { vendor?: unknown; jsonSchema?: unknown } })['~standard'];
  return '_zod' in schema && standard?.vendor === 'zod' && standard.jsonSchema === undefined;
}

/** Its input and output sides as Standard JSON Schema would give them, or undefined when no zod 4 can be loaded. */
export function legacyZod4JsonSchema(schema: object, owner: string): { input: Describer; output: Describer } | undefined {
  const zod = loadZodCore(owner);
  if (zod === undefined) return undefined;
  const describe =
    (io: 'input' | 'output'): Describer =>
    ({ target }) =>
      zod.toJSONSchema(schema, { target: target === 'draft-07' ? 'draft-7' : target, io, override: withOwnMetadata });
  return { input: describe('input'), output: describe('output') };
}

/** Adds a node's own metadata (description, title, examples, ...) after what describes its type, as current zod writes it. */
function withOwnMetadata(context: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const meta = (context.zodSchema as { meta?: () => unknown }).meta;
  const own = typeof meta === 'function' ? meta.call(context.zodSchema) : undefined;
  if (typeof own !== 'object' || own === null) return;
  // An `id` names a definition to its own zod; to another it would be a stray keyword.
  const { id: _id, ...metadata } = own as Record<string, unknown>;
  for (const key of Object.keys(metadata)) delete context.jsonSchema[key];
  Object.assign(context.jsonSchema, metadata);
}

/**
 * zod 4's core, from where this package is installed (npm hoists the app's zod beside it), else from
 * the app's own folder (`process.cwd()`: a strict layout such as pnpm's keeps the app's zod out of
 * this package's reach). Not a peer dependency: an optional peer made package managers install a
 * copy of this package per zod, and two copies of its types do not mix.
 */
function loadZodCore(owner: string): { toJSONSchema: ToJsonSchema } | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  const { createRequire } = nodeBuiltin<{ createRequire: (from: string) => (id: string) => unknown }>('module', `${owner}: a zod 4 schema from before zod 4.2`);
  const cwd = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.();
  // `import.meta.url` is shimmed in the CommonJS build (tsup `shims`).
  const places = [import.meta.url, ...(cwd === undefined ? [] : [`${cwd.replace(/[\\/]$/, '')}/package.json`])];
  for (const place of places) {
    try {
      const core = createRequire(place)('zod/v4/core') as { toJSONSchema?: ToJsonSchema };
      if (typeof core.toJSONSchema === 'function') {
        loaded = { toJSONSchema: core.toJSONSchema };
        break;
      }
    } catch {
      // Not resolvable from there: try the next place.
    }
  }
  return loaded ?? undefined;
}
