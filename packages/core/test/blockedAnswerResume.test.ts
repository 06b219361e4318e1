import { describe, expect, it } from 'vitest';
import { ScriptedModel, assistantMessage } from '@baton/testing';
import { Agent, MemorySession, OutputGuardrailTripwireTriggered, RunState, run } from '../src/index.js';

/**
 * A run whose output guardrail blocked its answer keeps that answer out of its session. Resumed once
 * the guardrail lets it pass (no model call), the answer goes to the session the resumed run is
 * given: the same one, another one (as the reference), or any, from the state read back from JSON.
 */

type Resume = 'the same session' | 'another session' | 'another session, the state read back from JSON' | 'the same session, the state read back from JSON';

describe('an answer an output guardrail blocked, resumed once the guardrail passes', () => {
  it.each(['the same session', 'another session', 'another session, the state read back from JSON', 'the same session, the state read back from JSON'] as Resume[])(
    'with %s: the session gets the answer once',
    async (resume) => {
      let trip = true;
      // Read back from JSON, the state holds no unchecked answer (README: deliberate), so the model is asked again.
      const model = new ScriptedModel([[assistantMessage('the answer')], [assistantMessage('the answer')]]);
      const agent = new Agent({ name: 'A', model, outputGuardrails: [{ name: 'gate', execute: async () => ({ tripwireTriggered: trip, outputInfo: null }) }] });
      const first = new MemorySession();
      const error = await run(agent, 'hello', { session: first }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect((await first.getItems()).map((item) => item.type)).toEqual(['message']);
      trip = false;
      const blocked = (error as OutputGuardrailTripwireTriggered).state as RunState<any, any>;
      const state = resume.includes('JSON') ? await RunState.fromString(agent, blocked.toString()) : blocked;
      const session = resume.startsWith('another') ? new MemorySession() : first;
      const resumed = await run(agent, state, { session });
      expect(resumed.finalOutput).toBe('the answer');
      expect(model.calls).toHaveLength(resume.includes('JSON') ? 2 : 1);
      const kept = (await session.getItems()).map((item) => (item.type === 'message' ? `message:${item.role}` : item.type));
      expect(kept).toEqual(session === first ? ['message:user', 'message:assistant'] : ['message:assistant']);
      if (!resume.includes('JSON')) expect(resumed.history.filter((item) => item.type === 'message' && item.role === 'assistant')).toHaveLength(1);
    },
  );
});
