import { describe, expect, it } from 'vitest';
import { hostedMcpTool, UserError } from '../src/index.js';

const server = { serverLabel: 'docs', serverUrl: 'https://mcp.example.com/docs' };

describe('hostedMcpTool requireApproval', () => {
  it('is sent in the API’s spelling, from either spelling of the filters', () => {
    const camel = hostedMcpTool({ ...server, requireApproval: { always: { toolNames: ['delete'] }, never: { readOnly: true } } });
    const snake = hostedMcpTool({ ...server, requireApproval: { always: { tool_names: ['delete'] }, never: { read_only: true } } });
    expect(camel.providerData!.require_approval).toEqual({ always: { tool_names: ['delete'] }, never: { read_only: true } });
    expect(snake.providerData!.require_approval).toEqual(camel.providerData!.require_approval);
    expect(hostedMcpTool(server).providerData!.require_approval).toBe('never');
  });

  it.each([
    ['a misspelt policy', 'alwyas', /string value must be "always" or "never", got "alwyas"/],
    ['null', null, /value must be "always", "never", or an object/],
    ['a list', [], /value must be "always", "never", or an object/],
    ['an empty object', {}, /must include at least one of always or never/],
    ['an unknown branch', { sometimes: { toolNames: ['x'] } }, /object value has unsupported key "sometimes"/],
    ['a branch that is not an object', { always: null }, /always must be an object with toolNames or readOnly/],
    ['an unknown filter key', { never: { names: ['x'] } }, /never has unsupported key "names"/],
    ['both spellings of the names', { always: { toolNames: ['a'], tool_names: ['a'] } }, /must not specify both toolNames and tool_names/],
    ['both spellings of read-only', { always: { readOnly: true, read_only: true } }, /must not specify both readOnly and read_only/],
    ['names that are not a list', { always: { toolNames: 'search' } }, /always\.toolNames must be an array/],
    ['an empty name', { always: { toolNames: [''] } }, /always\.toolNames must contain only non-empty strings/],
    ['a read-only flag that is not a boolean', { always: { readOnly: 'yes' } }, /always\.readOnly must be a boolean/],
    ['an empty filter', { always: {} }, /always must include toolNames or readOnly/],
    ['a tool both always and never approved', { always: { toolNames: ['rm'] }, never: { toolNames: ['rm'] } }, /tool "rm" cannot be listed in both always and never/],
  ])('refuses %s with a UserError saying what is wrong', (_case, requireApproval, message) => {
    const make = () => hostedMcpTool({ ...server, requireApproval } as never);
    expect(make).toThrow(UserError);
    expect(make).toThrow(/^Invalid hosted MCP requireApproval: /);
    expect(make).toThrow(message);
    expect(make).toThrow(/hostedMcpTool "docs"/);
  });
});
