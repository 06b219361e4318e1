import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { Agent, UserError, run, tool, toolNamespace } from '../src/index.js';

const lookup = (answer: string, deferLoading?: boolean) =>
  tool({ name: 'lookup', description: 'Looks things up', parameters: z.object({ q: z.string() }), ...(deferLoading === undefined ? {} : { deferLoading }), execute: () => answer });

describe('toolNamespace()', () => {
  it('returns copies of the tools carrying the namespace (made tool-safe); the originals are unchanged', () => {
    const original = lookup('plain');
    const [namespaced] = toolNamespace({ name: 'CRM tools', description: ' Customer records ', tools: [original] });
    expect(namespaced).not.toBe(original);
    expect(namespaced!.invoke).toBe(original.invoke);
    expect(namespaced).toMatchObject({ name: 'lookup', namespace: 'CRM_tools', namespaceDescription: 'Customer records' });
    expect(original.namespace).toBeUndefined();
  });

  it.each([
    ['no options', undefined, 'toolNamespace() requires a namespace config object.'],
    ['an empty name', { name: ' ', description: 'd', tools: [] }, 'toolNamespace() requires a non-empty namespace name.'],
    ['an empty description', { name: 'crm', description: '', tools: [] }, 'toolNamespace() requires a non-empty description because the Responses API requires namespace descriptions.'],
    ['a hosted tool', { name: 'crm', description: 'd', tools: [{ type: 'hosted_tool', name: 'web_search' }] }, 'only supports FunctionTool instances'],
    ['a tool named like the namespace', { name: 'lookup', description: 'd', tools: [lookup('x')] }, 'toolNamespace() does not allow a tool named "lookup" inside namespace "lookup"'],
  ])('refuses %s', (_, options, message) => {
    expect(() => toolNamespace(options as never)).toThrow(UserError);
    expect(() => toolNamespace(options as never)).toThrow(message);
  });
});

describe('namespaced and deferred tools in a run', () => {
  it('offers the namespace and deferLoading to the model, and runs the tool the call names in its namespace', async () => {
    const [crmLookup] = toolNamespace({ name: 'crm', description: 'Customer records', tools: [lookup('from crm', true)] });
    const plain = lookup('from plain');
    const model = new ScriptedModel([[functionCall('lookup', { q: 'acme' }, { callId: 'c1', namespace: 'crm' })], [assistantMessage('done')]]);
    const result = await run(new Agent({ name: 'Clerk', model, tools: [plain, crmLookup!] }), 'find acme');
    expect(model.calls[0]!.request.tools).toEqual([
      expect.objectContaining({ name: 'lookup' }),
      expect.objectContaining({ name: 'lookup', namespace: 'crm', namespaceDescription: 'Customer records', deferLoading: true }),
    ]);
    expect(model.calls[0]!.request.tools[0]).not.toHaveProperty('namespace');
    const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
    expect(output && 'output' in output ? output.output : undefined).toBe('from crm');
  });

  it('refuses a deferLoading that is not a boolean', () => {
    expect(() => lookup('x', 'yes' as never)).toThrow('`deferLoading` must be a boolean');
  });
});
