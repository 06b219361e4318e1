import * as Effect from 'effect/Effect';
import * as Layer from 'effect/Layer';
import * as Tracer from 'effect/Tracer';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, MemorySession, Runner, SessionService } from '../src/index.js';
import { recordingTracer } from './helpers.js';

// The session and the tracer come from the Effect context for runEffect: layers choose them,
// run options still come first, and Promise users see no change.

describe('runEffect reads its services from the context', () => {
  it('keeps the conversation in the session given as a layer', async () => {
    const session = new MemorySession();
    await session.addItems([{ role: 'user', content: 'my name is Ada' }]);
    const model = new ScriptedModel([[assistantMessage('hello Ada')]]);
    const program = new Runner().runEffect(new Agent({ name: 'A', model }), 'who am I?').pipe(Effect.provide(Layer.succeed(SessionService, session)));
    await Effect.runPromise(program);
    // The history reached the model, and the run's items were written back.
    expect(JSON.stringify(model.calls[0]!.request.input)).toContain('my name is Ada');
    const items = await session.getItems();
    expect(items.map((item) => ('content' in item ? JSON.stringify(item.content) : item.type))).toEqual([
      '"my name is Ada"',
      '"who am I?"',
      expect.stringContaining('hello Ada'),
    ]);
  });

  it('a session in the run options wins over the layer', async () => {
    const fromLayer = new MemorySession();
    const fromOptions = new MemorySession();
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const program = new Runner()
      .runEffect(new Agent({ name: 'A', model }), 'hi', { session: fromOptions })
      .pipe(Effect.provide(Layer.succeed(SessionService, fromLayer)));
    await Effect.runPromise(program);
    expect(await fromLayer.getItems()).toEqual([]);
    expect(await fromOptions.getItems()).toHaveLength(2);
  });

  it('without a layer there is no session, as before', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    const result = await Effect.runPromise(new Runner().runEffect(new Agent({ name: 'A', model }), 'hi'));
    expect(result.finalOutput).toBe('ok');
  });

  it("sends the run's spans to the tracer given as a layer", async () => {
    const { tracer, spans } = recordingTracer();
    const model = new ScriptedModel([[assistantMessage('traced')]]);
    const program = new Runner().runEffect(new Agent({ name: 'A', model }), 'hi').pipe(Effect.provide(Layer.succeed(Tracer.Tracer, tracer)));
    await Effect.runPromise(program);
    expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(['baton.run', 'baton.turn', 'baton.model']));
  });
});
