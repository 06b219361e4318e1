import { afterEach, describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { onBoth } from './sdks.js';
import { bodies, calls, closeServers, outputs } from './mcpStrictServer.js';

afterEach(closeServers);

// What the model is told when an MCP call fails must be the reference's fixed text: a server's
// error can carry internal details. An errorFunction still gets the error.

describe('a failed MCP call (same on both SDKs)', () => {
  it('the model gets the fixed text, never the server’s error with its internal details', async () => {
    const turns = [calls(['lookup', { id: '42' }]), fakeText('sorry')];
    const both = await onBoth((under) => bodies(under, turns));
    expect(both.baton).toEqual(both.reference);
    expect(outputs(both.baton.requests)).toEqual(['An error occurred while running the tool. Please try again.']);
    expect(JSON.stringify(both.baton.requests)).not.toContain('hunter2');
  });

  it('a server errorFunction still receives the error and writes the model’s text', async () => {
    const errorFunction = ({ error }: { error: unknown }) => `lookup failed: ${/refused/.test(String((error as Error).message)) ? 'database refused' : 'unknown'}`;
    const turns = [calls(['lookup', { id: '42' }]), fakeText('sorry')];
    const both = await onBoth((under) => bodies(under, turns, { errorFunction }));
    expect(both.baton).toEqual(both.reference);
    expect(outputs(both.baton.requests)).toEqual(['lookup failed: database refused']);
  });
});
