import { describe, expect, it } from 'vitest';
import { onBoth } from './sdks.js';

// `convertSchemasToStrict` (and a root declared open) on both SDKs: the same MCP listing must give
// the same tool, strict or not, with the same parameters. Schemas that declare an object open to
// extra keys stay non-strict as listed; values that only look like schemas do not count.

const server = {
  name: 's',
  cacheToolsList: false,
  connect: async () => {},
  close: async () => {},
  listTools: async () => [],
  callTool: async () => [],
  invalidateToolsCache: async () => {},
};

const open = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: true };
const cases: Array<[string, Record<string, unknown>, boolean]> = [
  ['a root with properties declared open, not converted', open, false],
  ['a root with properties declared open, converted', open, true],
  ['extra keys following a schema, converted', { ...open, additionalProperties: { type: 'string' } }, true],
  [
    'a nested object with properties declared open, converted',
    { type: 'object', properties: { o: open }, required: ['o'], additionalProperties: false },
    true,
  ],
  ['a nested object with no properties, converted', { type: 'object', properties: { o: { type: 'object' } }, required: ['o'] }, true],
  ['an open object inside anyOf, converted', { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'object' }] } }, required: ['v'], additionalProperties: false }, true],
  ['a const that looks like an open object, converted', { type: 'object', properties: { s: { const: { type: 'object' } } }, required: ['s'], additionalProperties: false }, true],
  ['a closed object, converted', { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, true],
];

describe('an MCP tool’s schema, strict or not', () => {
  it.each(cases)('%s', async (_label, inputSchema, convert) => {
    const { reference, baton } = await onBoth(async ({ sdk }) => {
      const made = sdk.mcpToFunctionTool({ name: 't', description: 'd', inputSchema } as never, server as never, convert);
      return { strict: made.strict, parameters: made.parameters };
    });
    expect(baton).toEqual(reference);
  });
});
