import { describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { OpenAIProviderError } from '../src/index.js';
import { APIS, collectUntilError, fakeServer, modelFor, rawTypes, rejectionOf, request } from './helpers.js';

describe.each(APIS)('%s abort', (api) => {
  it('an already aborted signal fails at once, without a request', async () => {
    const server = await fakeServer(fakeText('never'));
    const error = await rejectionOf(modelFor(server, api).getResponse(request({ signal: AbortSignal.abort() })));
    expect(error).toBeInstanceOf(OpenAIProviderError);
    expect(error).toMatchObject({ reason: 'aborted', api });
    expect(server.requests).toHaveLength(0);
  });

  it('aborting while waiting for the answer closes the connection', async () => {
    const server = await fakeServer(fakeText('late', { delayMs: 5_000 }));
    const controller = new AbortController();
    const pending = modelFor(server, api).getResponse(request({ signal: controller.signal }));
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ reason: 'aborted' });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('aborting mid-stream ends the stream with an aborted error and the server sees the connection close', async () => {
    const server = await fakeServer(fakeText('Hello world', { stream: { hangAfterEvents: 3 } }));
    const controller = new AbortController();
    const events = modelFor(server, api).getStreamedResponse(request({ signal: controller.signal }));
    const seen: string[] = [];
    const result = collectUntilError(
      (async function* () {
        for await (const event of events) {
          seen.push(event.type);
          if (seen.filter((type) => type === 'model').length === 3) controller.abort();
          yield event;
        }
      })(),
    );
    const { events: received, error } = await result;
    expect(rawTypes(received)).toHaveLength(3);
    expect(error).toMatchObject({ reason: 'aborted', api });
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });

  it('a consumer that stops reading closes the connection', async () => {
    const server = await fakeServer(fakeText('Hello world', { stream: { hangAfterEvents: 4 } }));
    for await (const event of modelFor(server, api).getStreamedResponse(request())) {
      if (event.type === 'model') break;
    }
    expect((await server.settled(0)).outcome).toBe('client_closed');
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
