import * as CodexSdk from '@openai/codex-sdk';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CodexClient,
  CodexOptions,
  CodexSdkModule,
  CodexUsage,
  SandboxMode,
  ThreadEvent,
  ThreadItem,
  ThreadOptions,
  TurnOptions,
} from '../src/index.js';

// The package describes the SDK's types itself (the SDK's declarations import a package it does not
// install). These checks fail `npm run typecheck` when the installed SDK and the description part:
// what the user hands to the SDK must be accepted by it, what the SDK hands to the user must fit ours.
describe("the package's description of @openai/codex-sdk's types", () => {
  it('accepts a real Codex client and the SDK module', () => {
    expectTypeOf(new CodexSdk.Codex()).toMatchTypeOf<CodexClient>();
    expectTypeOf(CodexSdk).toMatchTypeOf<CodexSdkModule>();
    expect(typeof new CodexSdk.Codex().startThread).toBe('function');
  });

  it('passes options the SDK accepts', () => {
    expectTypeOf<CodexOptions>().toMatchTypeOf<CodexSdk.CodexOptions>();
    expectTypeOf<SandboxMode>().toEqualTypeOf<CodexSdk.SandboxMode>();
    expectTypeOf<Omit<TurnOptions, 'cyberAccessProgram'>>().toMatchTypeOf<CodexSdk.TurnOptions>();
    expectTypeOf<Omit<ThreadOptions, 'modelReasoningEffort' | 'webSearchMode' | 'approvalPolicy'>>().toMatchTypeOf<CodexSdk.ThreadOptions>();
    // The SDK's own option values fit the open strings.
    expectTypeOf<CodexSdk.ThreadOptions>().toMatchTypeOf<ThreadOptions>();
    expectTypeOf<CodexSdk.TurnOptions>().toMatchTypeOf<TurnOptions>();
  });

  it("describes every event, item and usage the SDK reports", () => {
    expectTypeOf<CodexSdk.ThreadEvent>().toMatchTypeOf<ThreadEvent>();
    expectTypeOf<CodexSdk.ThreadItem>().toMatchTypeOf<ThreadItem>();
    expectTypeOf<CodexSdk.Usage>().toMatchTypeOf<CodexUsage>();
    // Every event and item kind of the SDK is named in the description, and no other.
    expectTypeOf<ThreadEvent['type']>().toEqualTypeOf<CodexSdk.ThreadEvent['type']>();
    expectTypeOf<ThreadItem['type']>().toEqualTypeOf<CodexSdk.ThreadItem['type']>();
  });
});
