import { describe, expect, it } from 'vitest';
import { fakeText } from '@baton/testing';
import { OpenAIResponsesModel, OpenAIResponsesWSModel } from '../src/index.js';
import { clientFor, fakeServer, request } from './helpers.js';

// The reference's WebSocket transport reports a request that may have been processed with a
// message saying so; an error carrying that message is never replayed, whoever rethrew it.
const MAY_HAVE_BEEN_ACCEPTED =
  'Responses websocket connection closed after sending a request on a reused connection before any response events were received. The request may have been accepted, so the SDK will not automatically retry this websocket request.';

describe('getRetryAdvice for a WebSocket request that may have been accepted', () => {
  const models = async () => {
    const client = clientFor(await fakeServer(fakeText('unused')));
    return [new OpenAIResponsesWSModel(client, 'gpt-test'), new OpenAIResponsesModel(client, 'gpt-test')];
  };

  it('is unsafe to replay, even where the server would say retry', async () => {
    const withHeader = Object.assign(new Error(MAY_HAVE_BEEN_ACCEPTED), { headers: { 'x-should-retry': 'true' }, status: 503 });
    for (const model of await models()) {
      for (const error of [new Error(MAY_HAVE_BEEN_ACCEPTED), withHeader, new Error(`wrapped: ${MAY_HAVE_BEEN_ACCEPTED.toUpperCase()}`)]) {
        expect(model.getRetryAdvice!({ error, request: request(), stream: true, attempt: 1 })).toEqual({ suggested: false, replaySafety: 'unsafe', reason: error.message });
      }
    }
  });

  it('leaves other errors to the usual rules', async () => {
    for (const model of await models()) {
      expect(model.getRetryAdvice!({ error: new Error('Responses websocket connection closed.'), request: request(), stream: true, attempt: 1 })).toBeUndefined();
      expect(model.getRetryAdvice!({ error: Object.assign(new Error('busy'), { status: 503 }), request: request(), stream: true, attempt: 1 })).toEqual({ suggested: true, reason: 'busy' });
    }
  });
});
