import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth } from './sdks.js';

// A turn that calls a tool and hands off, cancelled while the tool runs: the handoff is not made,
// its call is answered `aborted` (incomplete), so the session and the next request hold an answer
// for every call. The same program on both SDKs, plain and streamed.

const describeItem = (item: any) => ({ type: item.type, callId: item.callId, name: item.name, status: item.status, output: item.output });

describe('a handoff skipped by cancellation (same on both SDKs)', () => {
  it.each(['plain', 'streamed'] as const)('%s run: the handoff call is answered aborted, the handoff not made, and the run resumes', async (mode) => {
    const both = await onBoth(async ({ sdk, testing }) => {
      const controller = new AbortController();
      const reason = new Error('stop before the handoff');
      let toolStarted!: () => void;
      const started = new Promise<void>((resolve) => (toolStarted = resolve));
      let releaseTool!: () => void;
      const toolMayFinish = new Promise<void>((resolve) => (releaseTool = resolve));
      const slow = sdk.tool({
        name: 'slow',
        description: 'finishes after the cancellation',
        parameters: z.object({ q: z.string() }),
        execute: async () => {
          toolStarted();
          await toolMayFinish;
          return 'tool result';
        },
      });
      const handedOff: string[] = [];
      const target = new sdk.Agent({ name: 'Target', model: new testing.ScriptedModel([[testing.assistantMessage('from the target')]]) });
      const toTarget = sdk.handoff(target, { onHandoff: () => void handedOff.push('target') });
      const model = new testing.ScriptedModel([
        [
          testing.functionCall('slow', { q: 'x' }, { callId: 'tool-call' }),
          { id: 'handoff-call', type: 'function_call', name: toTarget.toolName, callId: 'handoff-call', status: 'completed', arguments: '{}' },
        ],
        [testing.assistantMessage('resumed')],
      ] as never);
      const source = new sdk.Agent({ name: 'Source', model, tools: [slow], handoffs: [toTarget] });
      const state = new sdk.RunState(new sdk.RunContext(), 'start', source, 10);
      const session = new sdk.MemorySession();
      const first =
        mode === 'plain'
          ? sdk.run(source, state, { session, signal: controller.signal })
          : sdk.run(source, state, { session, signal: controller.signal, stream: true }).then(async (result) => {
              for await (const _event of result);
              await result.completed;
              return result;
            });
      const firstOutcome = first.then(
        () => 'resolved',
        (error: unknown) => (error === reason ? 'the reason' : String(error)),
      );
      await started;
      controller.abort(reason);
      releaseTool();
      const ended = await firstOutcome;
      const savedAfterCancel = (await session.getItems()).map(describeItem);
      const generated = (state as any)._generatedItems.map((item: any) => [item.type, item.rawItem?.callId, item.rawItem?.status]);
      const resumed = await sdk.run(source, state, { session });
      const sent = ((model as any).calls.at(-1).request.input as any[]).map(describeItem);
      const savedAtEnd = (await session.getItems()).map((item: any) => [item.type, item.callId ?? item.role, item.status]);
      return { ended, savedAfterCancel, savedAtEnd, generated, sent, finalOutput: resumed.finalOutput, lastAgent: resumed.lastAgent?.name, handedOff };
    });
    if (mode === 'streamed') {
      // A deliberate difference (README): a streamed run cancelled while its tools run writes what it
      // settled when it ends, as a plain run does; the reference's writes it once the resumed run ends.
      expect({ ...both.baton, savedAfterCancel: undefined }).toEqual({ ...both.reference, savedAfterCancel: undefined });
      expect(both.reference.savedAfterCancel).toEqual([]);
      expect(both.baton.savedAfterCancel.map((item: { type: string }) => item.type)).toEqual(both.baton.savedAtEnd.slice(0, 4).map(([type]: string[]) => type));
    } else {
      expect(both.baton).toEqual(both.reference);
    }
    expect(both.baton.handedOff).toEqual([]);
    expect(both.baton.savedAfterCancel.at(-1)).toMatchObject({ type: 'function_call_result', callId: 'handoff-call', status: 'incomplete' });
  });
});
