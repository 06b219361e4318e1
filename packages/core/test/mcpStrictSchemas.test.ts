// The mcp README: `convertSchemasToStrict` offers strict schemas where the schema allows it, as the
// reference does. A schema that declares an object open to extra keys (`additionalProperties` true
// or a schema, or an object with no properties that does not forbid them) would change meaning if
// closed, so the tool stays non-strict and its schema is offered as listed (the root's
// `additionalProperties` kept when given, else `true`); values that only look like schemas (an
// `enum`, a `const`, a `default`, `examples`) and nulls are not schemas. Every expected tool below is what
// @openai/agents-core 0.20.0's `mcpToFunctionTool` makes of the same listing.
import { describe, expect, it } from 'vitest';
import type { MCPServer } from '@baton/types';
import { mcpToFunctionTool } from '../src/index.js';

const server: MCPServer = {
  name: 's',
  cacheToolsList: false,
  connect: async () => {},
  close: async () => {},
  listTools: async () => [],
  callTool: async () => [],
  invalidateToolsCache: async () => {},
};

const table: Array<[string, Record<string, unknown>, boolean, { strict: boolean; parameters: unknown }]> = [
  [
    "an object with properties declared open (additionalProperties: true), not converted",
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true},
    false,
    {"strict": false, "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true}},
  ],
  [
    "an empty object declared open, not converted",
    {"type": "object", "additionalProperties": true},
    false,
    {"strict": false, "parameters": {"type": "object", "additionalProperties": true, "properties": {}, "required": []}},
  ],
  [
    "an example that looks like an open object is a value, not a schema: converted",
    {"type": "object", "properties": {"q": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false, "examples": [{"additionalProperties": true, "properties": {"a": "x"}}]}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false, "examples": [{"additionalProperties": true, "properties": {"a": "x"}}]}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "an OpenAPI-style example (example) that looks like an empty object schema is a value: converted",
    {"type": "object", "properties": {"q": {"type": "string", "example": {"type": "object"}}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string", "example": {"type": "object"}}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "an example that looks like an empty object schema is a value too: converted",
    {"type": "object", "properties": {"q": {"type": "string", "examples": [{"type": "object"}]}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string", "examples": [{"type": "object"}]}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "a property named like a value keyword (default, examples) is a schema: an open object there is not converted",
    {"type": "object", "properties": {"default": {"type": "object"}, "examples": {"type": "object", "additionalProperties": true}}, "required": ["default", "examples"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"default": {"type": "object"}, "examples": {"type": "object", "additionalProperties": true}}, "required": ["default", "examples"], "additionalProperties": false}},
  ],
  [
    "a null annotation (description: null) is not a schema: converted",
    {"type": "object", "properties": {"q": {"type": "string", "description": null}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string", "description": null}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "an object that may also be null (type [object, null]) declared open, with no properties: not converted",
    {"type": "object", "properties": {"o": {"type": ["object", "null"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": ["object", "null"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "an untyped schema declared open (additionalProperties: true alone): not converted",
    {"type": "object", "properties": {"o": {"additionalProperties": true}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"additionalProperties": true}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "a string schema that mentions additionalProperties is not an object: converted",
    {"type": "object", "properties": {"q": {"type": "string", "additionalProperties": true}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string", "additionalProperties": true}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "a definition named additionalProperties is a schema, not a declaration: converted",
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/additionalProperties"}}, "required": ["a"], "additionalProperties": false, "$defs": {"additionalProperties": {"type": "string"}}},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/additionalProperties"}}, "required": ["a"], "additionalProperties": false, "$defs": {"additionalProperties": {"type": "string"}}}},
  ],
  [
    "an object whose properties are null and closed: converted",
    {"type": "object", "properties": {"o": {"type": "object", "properties": null, "additionalProperties": false}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": null, "additionalProperties": false}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "an object with properties that says nothing of extra keys, converted",
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "an enum whose value looks like an open object schema (a value, not a schema), converted",
    {"type": "object", "properties": {"shape": {"enum": [{"type": "object"}]}}, "required": ["shape"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"shape": {"enum": [{"type": "object"}]}}, "required": ["shape"], "additionalProperties": false}},
  ],
  [
    "a const that looks like an open object schema, converted",
    {"type": "object", "properties": {"shape": {"const": {"type": "object"}}}, "required": ["shape"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"shape": {"const": {"type": "object"}}}, "required": ["shape"], "additionalProperties": false}},
  ],
  [
    "a default that looks like an open object schema, converted",
    {"type": "object", "properties": {"opts": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false, "default": {"type": "object"}}}, "required": ["opts"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"opts": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false, "default": {"type": "object"}}}, "required": ["opts"], "additionalProperties": false}},
  ],
  [
    "a null among a property's examples, converted",
    {"type": "object", "properties": {"q": {"type": "string", "examples": [null]}}, "required": ["q"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"q": {"type": "string", "examples": [null]}}, "required": ["q"], "additionalProperties": false}},
  ],
  [
    "an open object inside anyOf, converted",
    {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "object"}]}}, "required": ["v"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "object"}]}}, "required": ["v"], "additionalProperties": false}},
  ],
  [
    "a nested object with no properties, converted",
    {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"]},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": true}},
  ],
  [
    "a nested object with no properties under an open root, not converted",
    {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": true},
    false,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": true}},
  ],
  [
    "a nested object with no properties under a closed root, converted",
    {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "an object with properties declared open, converted",
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true}},
  ],
  [
    "an object whose extra keys follow a schema, converted",
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": {"type": "string"}},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": {"type": "string"}}},
  ],
  [
    "a nested object with properties declared open, converted",
    {"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "a nested object with properties declared open, not converted",
    {"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"]},
    false,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": true}},
  ],
  [
    "a root without `type` declared open, not converted",
    {"properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true},
    false,
    {"strict": false, "parameters": {"properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true, "type": "object"}},
  ],
  [
    "an object declared closed, not converted (offered non-strict and open, as every unconverted schema)",
    {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": false},
    false,
    {"strict": false, "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": true}},
  ],
  [
    "a nested nullable object (type [\"object\", \"null\"]) with properties declared open, converted",
    {"type": "object", "properties": {"o": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false},
    true,
    {"strict": false, "parameters": {"type": "object", "properties": {"o": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": true}}, "required": ["o"], "additionalProperties": false}},
  ],
  [
    "a property named additionalProperties (a parameter, not the keyword) in a closed object, converted",
    {"type": "object", "properties": {"additionalProperties": {"type": "boolean"}}, "required": ["additionalProperties"], "additionalProperties": false},
    true,
    {"strict": true, "parameters": {"type": "object", "properties": {"additionalProperties": {"type": "boolean"}}, "required": ["additionalProperties"], "additionalProperties": false}},
  ],
  [
    "an empty object, not converted",
    {"type": "object", "properties": {}},
    false,
    {"strict": false, "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": true}},
  ],
];

describe('an MCP tool’s schema, strict or not (the reference’s answers)', () => {
  it.each(table)('%s', (_label, inputSchema, convertSchemasToStrict, expected) => {
    const made = mcpToFunctionTool({ name: 't', description: 'd', inputSchema: inputSchema as never }, server, convertSchemasToStrict);
    expect({ strict: made.strict, parameters: made.parameters }).toEqual(expected);
  });
});
