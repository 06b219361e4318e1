export { FakeOpenAIServer, startFakeOpenAIServer } from './fakeOpenAIServer.js';
export type { FakeOpenAIServerOptions, FakeRequestOutcome, RecordedRequest } from './fakeOpenAIServer.js';
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
