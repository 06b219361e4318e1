export { FakeModelServer, FakeOpenAIServer, startFakeModelServer, startFakeOpenAIServer } from './fakeOpenAIServer.js';
export type { FakeModelServerOptions, FakeOpenAIServerOptions, FakeRequestOutcome, RecordedRequest } from './fakeOpenAIServer.js';
/** The model API a recorded request called (`RecordedRequest.api`). */
export type { FakeApi } from './apis.js';
export { decodeFakeCompaction } from './compactApi.js';
export { fakeError, fakeItems, fakeRaw, fakeRefusal, fakeResponder, fakeResponse, fakeText, fakeToolCalls } from './turns.js';
export type {
  FakeErrorTurn,
  FakeOutput,
  FakeRawTurn,
  FakeRequestBody,
  FakeResponderTurn,
  FakeResponseTurn,
  FakeStreamOptions,
  FakeTurn,
  FakeUsage,
} from './turns.js';
