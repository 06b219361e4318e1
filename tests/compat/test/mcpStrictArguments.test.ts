import { afterEach, describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { onBoth } from './sdks.js';
import { bodies, calls, closeServers, outputs } from './mcpStrictServer.js';

afterEach(closeServers);

// What a strict model sends for an optional argument of an MCP tool, and what the server then
// receives, must be the reference's: the null stands for "not given" and is dropped first.

describe('MCP tools with convertSchemasToStrict (same on both SDKs)', () => {
  it('optional arguments are offered nullable, each keeping its description', async () => {
    const both = await onBoth((under) => bodies(under, [fakeText('ok')], { convertSchemasToStrict: true }));
    expect(both.baton).toEqual(both.reference);
    const greet = (both.baton.requests[0]!.tools as Array<{ name: string; parameters: { properties: Record<string, unknown> } }>).find((t) => t.name === 'greet')!;
    expect(greet.parameters.properties.title).toEqual({ description: 'Their title, if any', anyOf: [{ type: 'string', description: 'Their title, if any' }, { type: 'null' }] });
  });

  it('the null a strict model sends for an optional argument never reaches the server', async () => {
    const turns = [
      calls(['greet', { name: 'Ada', title: null, tags: null, nickname: null }], ['greet', { name: 'Grace', title: 'Dr', tags: ['navy'], nickname: 'Amazing' }]),
      fakeText('done'),
    ];
    const both = await onBoth((under) => bodies(under, turns, { convertSchemasToStrict: true }));
    expect(both.baton).toEqual(both.reference);
    // `nickname` allows null in the server's own schema, so its null is the server's to receive.
    expect(outputs(both.baton.requests)).toEqual([
      'received {"name":"Ada","nickname":null}',
      'received {"name":"Grace","title":"Dr","tags":["navy"],"nickname":"Amazing"}',
    ]);
  });

  it('without convertSchemasToStrict the arguments reach the server as sent', async () => {
    const turns = [calls(['greet', { name: 'Ada', title: 'Dr' }]), fakeText('done')];
    const both = await onBoth((under) => bodies(under, turns));
    expect(both.baton).toEqual(both.reference);
  });
});
