import { describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { UserError } from '@baton/types';
import { fakeServer, modelFor, rejectionOf, request } from './helpers.js';

// `modelSettings.providerData`'s `extra_headers` / `extra_query` / `extra_body` must be plain
// objects: anything else is refused before a request is sent, with the reference's message.
describe('transport overrides in providerData (Responses)', () => {
  it.each([
    ['URLSearchParams as extra_query', { extra_query: new URLSearchParams({ tenant: 'acme' }) }, 'Responses websocket extra query must be a mapping.'],
    ['an array as extraHeaders', { extraHeaders: [['x-a', '1']] }, 'Responses websocket extra headers must be a mapping.'],
    ['null as extra_body', { extra_body: null }, 'Responses websocket extra_body must be a mapping.'],
    ['a class instance as extra_headers', { extra_headers: new Map([['x-a', '1']]) }, 'Responses websocket extra headers must be a mapping.'],
    // The reference checks headers first, then the query, then the body.
    ['several bad ones: the headers are reported', { extra_body: [], extra_query: 'q', extra_headers: 'h' }, 'Responses websocket extra headers must be a mapping.'],
  ])('refuses %s before sending anything', async (_, providerData, message) => {
    const server = await fakeServer(fakeText('ok'));
    const error = await rejectionOf(modelFor(server, 'responses').getResponse(request({ modelSettings: { retry: { maxRetries: 0 }, providerData } })));
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  it('accepts plain-object overrides, a null-prototype one too, and sends them', async () => {
    const server = await fakeServer(fakeText('ok'));
    const query = Object.assign(Object.create(null) as Record<string, string>, { tenant: 'acme' });
    await modelFor(server, 'responses').getResponse(request({ modelSettings: { retry: { maxRetries: 0 }, providerData: { extra_query: query, extra_headers: { 'x-team': 'blue' }, extra_body: { metadata: { a: '1' } } } } }));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['x-team']).toBe('blue');
    expect(server.requests[0]!.body).toMatchObject({ metadata: { a: '1' } });
  });
});
