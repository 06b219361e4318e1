// The mcp README's options, as a server is constructed (nothing is started): the defaults it
// documents (`clientSessionTimeoutSeconds` 5, `timeout` 60 000 ms, `closeTimeoutMs` 5 000,
// `maxResponseBytes` 32 MiB, `maxListPages` 64, `cacheToolsList` false), and a bad value is a
// UserError naming the server, the option and the value it got.
import { describe, expect, it } from 'vitest';
import { UserError } from '@baton/types';
import { MCPServerStdio, type MCPServerOptions } from '../src/index.js';

const make = (options: Omit<MCPServerOptions, 'name'> & { name?: string } = {}) => new MCPServerStdio({ command: process.execPath, args: ['server.js'], ...options });

describe('a server’s options', () => {
  it('default as the README says, and the name defaults to the transport and its command', () => {
    const server = make();
    expect(server.clientSessionTimeoutSeconds).toBe(5);
    expect(server.timeout).toBe(60_000);
    expect(server.closeTimeoutMs).toBe(5_000);
    expect(server.maxResponseBytes).toBe(32 * 1024 * 1024);
    expect(server.maxListPages).toBe(64);
    expect(server.cacheToolsList).toBe(false);
    expect(server.connected).toBe(false);
    expect(server.name).toBe(`stdio: ${process.execPath}`);
  });

  it('keep the values given', () => {
    const server = make({
      name: 'mine',
      clientSessionTimeoutSeconds: 0.5,
      timeout: 1_500,
      closeTimeoutMs: 250,
      maxResponseBytes: 1024,
      maxListPages: 1,
      cacheToolsList: true,
      useStructuredContent: true,
      errorFunction: null,
      requireApproval: 'always',
    });
    expect(server).toMatchObject({
      name: 'mine',
      clientSessionTimeoutSeconds: 0.5,
      timeout: 1_500,
      closeTimeoutMs: 250,
      maxResponseBytes: 1024,
      maxListPages: 1,
      cacheToolsList: true,
      useStructuredContent: true,
      errorFunction: null,
      requireApproval: 'always',
    });
    expect(make({ maxResponseBytes: null }).maxResponseBytes).toBeNull();
    const customDataExtractor = () => ({ kept: true });
    expect(make({ customDataExtractor }).customDataExtractor).toBe(customDataExtractor);
    expect(make().customDataExtractor).toBeUndefined();
  });

  it('customDataExtractor: anything but a function is a UserError naming the server', () => {
    const attempt = () => make({ name: 'bad', customDataExtractor: { extract: true } as never });
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow('MCP server "bad": `customDataExtractor` must be a function, got object.');
  });

  it.each([
    ['clientSessionTimeoutSeconds', 0, 'a positive number, got 0'],
    ['clientSessionTimeoutSeconds', -1, 'a positive number, got -1'],
    ['timeout', Number.NaN, 'a positive number, got NaN'],
    ['timeout', Number.POSITIVE_INFINITY, 'a positive number, got Infinity'],
    ['timeout', '100', 'a positive number, got 100'],
    ['closeTimeoutMs', 0, 'a positive number, got 0'],
    ['closeTimeoutMs', -5, 'a positive number, got -5'],
    ['maxListPages', 0, 'a positive integer, got 0'],
    ['maxResponseBytes', 0, 'a positive integer, got 0'],
    ['maxResponseBytes', 10.5, 'a positive integer, got 10.5'],
  ] as const)('%s: %s is a UserError naming the server and the option', (option, value, says) => {
    const attempt = () => make({ name: 'bad', [option]: value } as never);
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(`MCP server "bad": \`${option}\` must be ${says}.`);
  });

  it('the smallest positive values are accepted', () => {
    expect(() => make({ clientSessionTimeoutSeconds: 0.001, timeout: 1, closeTimeoutMs: 1, maxListPages: 1, maxResponseBytes: 1 })).not.toThrow();
  });
});
