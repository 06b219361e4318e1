// The core README: when an agent's output guardrails fail, a guardrail that threw wins over a
// sibling's trip (as on the reference, whose batch rejects before any verdict is read); a guardrail
// that throws an OutputGuardrailTripwireTriggered of its own has that very error surface; when a
// trip blocked a tool output that was the final output, the sibling's error and a failed session
// save carry the placeholder in place of the output; and a session that fails to save the stopped
// run is reported as the run error's `cause`, not in a log line. Each case runs both ways (plain
// and streamed), since the streamed run settles through its own path.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import {
  Agent,
  GuardrailExecutionError,
  MemorySession,
  OutputGuardrailTripwireTriggered,
  RunContext,
  RunState,
  run,
  tool,
  type OutputGuardrail,
  type SessionHistoryTransactionArgs,
} from '../src/index.js';

const PLACEHOLDER = 'Output withheld by an output guardrail.';
const SECRET = 'ledger row 7731';

async function failureOf(agent: Agent<any, any>, stream: boolean, session = new MemorySession()): Promise<any> {
  try {
    if (stream) await (await run(agent, 'go', { session, stream: true })).completed;
    else await run(agent, 'go', { session });
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail, but it succeeded');
}

const trips: OutputGuardrail = { name: 'trips', execute: async () => ({ tripwireTriggered: true, outputInfo: `saw ${SECRET}` }) };
const passes: OutputGuardrail = { name: 'passes', execute: async () => ({ tripwireTriggered: false }) };
const throwsWith = (error: unknown, name = 'throws'): OutputGuardrail => ({
  name,
  execute: async () => {
    throw error;
  },
});

/** An agent whose final output is its tool's output (`stop_on_first_tool`): the ledger row. */
function ledgerAgent(outputGuardrails: OutputGuardrail[], outputType?: z.ZodType) {
  const ledger = tool({ name: 'ledger', description: '', parameters: z.object({}), execute: async () => (outputType ? JSON.stringify({ row: SECRET }) : SECRET) });
  return new Agent({
    name: 'Ledger',
    model: new ScriptedModel([[functionCall('ledger', {}, { callId: 'c1' })]]),
    tools: [ledger],
    toolUseBehavior: 'stop_on_first_tool',
    outputGuardrails,
    ...(outputType ? { outputType: outputType as never } : {}),
  });
}

/** An agent whose final output is the model's message. */
const messageAgent = (outputGuardrails: OutputGuardrail[]) => new Agent({ name: 'Speaker', model: new ScriptedModel([[assistantMessage(SECRET)]]), outputGuardrails });

class FailingSession extends MemorySession {
  constructor(private readonly failure: unknown) {
    super();
  }
  override async applyHistoryTransaction(_args: SessionHistoryTransactionArgs): Promise<void> {
    throw this.failure;
  }
  override async addItems(): Promise<void> {
    throw this.failure;
  }
}

describe.each([false, true])('output guardrails that fail (stream=%s)', (stream) => {
  it('a guardrail that throws wins over a sibling listed before it that tripped; both are recorded', async () => {
    const error = await failureOf(messageAgent([trips, throwsWith(new Error('checker crashed'))]), stream);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Output guardrail "throws" failed to complete: checker crashed');
    expect((error.state as RunState<any, any>).outputGuardrailResults.map((result) => result.guardrail.name)).toEqual(['trips']);
  });

  it('on a message answer, the session gets the input but not the unchecked answer', async () => {
    const session = new MemorySession();
    await failureOf(messageAgent([throwsWith(new Error('checker crashed'))]), stream, session);
    const items = await session.getItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ role: 'user', content: 'go' });
  });

  it('a guardrail that throws its own OutputGuardrailTripwireTriggered has that error surface, with its own state', async () => {
    const foreign = new RunState(new RunContext(), 'elsewhere', new Agent({ name: 'Foreign' }), 1);
    const own = new OutputGuardrailTripwireTriggered('Caller-thrown', { guardrail: { type: 'output', name: 'own' }, agent: new Agent({ name: 'Foreign' }), agentOutput: 'x', output: { tripwireTriggered: true } }, foreign as never);
    const session = new MemorySession();
    const error = await failureOf(ledgerAgent([throwsWith(own)]), stream, session);
    expect(error).toBe(own);
    expect(error.state).toBe(foreign);
    // No guardrail completed with a trip: the tool output is not withheld.
    expect(JSON.stringify(await session.getItems())).toContain(SECRET);
  });

  it('a tool output that was the final output, a trip and a sibling that throws quoting it: the error carries the placeholder', async () => {
    const quoting = Object.assign(new Error(`refused ${SECRET}`), { cause: new Error(SECRET), rejectedOutput: SECRET });
    const session = new MemorySession();
    const error = await failureOf(ledgerAgent([trips, throwsWith(quoting, 'quotes')]), stream, session);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe(`Output guardrail "quotes" failed to complete: refused ${PLACEHOLDER}`);
    expect(error.error).toBeInstanceOf(Error);
    expect(error.error).not.toBe(quoting);
    expect(error.error.message).toBe(`refused ${PLACEHOLDER}`);
    expect(error.error.cause).toBeUndefined();
    expect(error.error.rejectedOutput).toBeUndefined();
    expect(error.stack).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    const state = error.state as RunState<any, any>;
    expect(state.toString()).not.toContain(SECRET);
    expect(state.outputGuardrailResults).toEqual([expect.objectContaining({ agentOutput: PLACEHOLDER, output: { tripwireTriggered: true, outputInfo: undefined } })]);
    const saved = JSON.stringify(await session.getItems());
    expect(saved).toContain(PLACEHOLDER);
    expect(saved).not.toContain(SECRET);
  });

  it('the same with a structured output: the error keeps no details at all', async () => {
    const error = await failureOf(ledgerAgent([trips, throwsWith(new Error(SECRET))], z.object({ row: z.string() })), stream);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Error details are redacted.');
    expect(error.error.message).toBe('Error details are redacted.');
  });

  it('a trip and a sibling throwing a tripwire of its own: a redacted tripwire naming the guardrail that completed with the trip', async () => {
    const own = new OutputGuardrailTripwireTriggered(`Caller-thrown ${SECRET}`, { guardrail: { type: 'output', name: 'own' }, agent: new Agent({ name: 'Foreign' }), agentOutput: SECRET, output: { tripwireTriggered: true, outputInfo: SECRET } });
    const agent = ledgerAgent([trips, throwsWith(own)]);
    const error = await failureOf(agent, stream);
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error).not.toBe(own);
    expect(error.message).toBe('Output guardrail triggered.');
    expect(error.result).toMatchObject({ guardrail: { type: 'output', name: 'trips' }, agentOutput: PLACEHOLDER, output: { tripwireTriggered: true, outputInfo: undefined } });
    expect(error.result.agent).toBe(agent);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('a trip whose outputInfo JSON cannot carry fails the batch with GuardrailExecutionError; the result stays recorded', async () => {
    const circular: Record<string, unknown> = { note: 'loops' };
    circular.self = circular;
    const error = await failureOf(messageAgent([{ name: 'circular', execute: async () => ({ tripwireTriggered: true, outputInfo: circular }) }]), stream);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toMatch(/^Output guardrail "circular" failed to complete: Converting circular structure to JSON/);
    expect(error.error).toBeInstanceOf(TypeError);
    expect((error.state as RunState<any, any>).outputGuardrailResults.map((result) => result.guardrail.name)).toEqual(['circular']);
  });

  it('the same on a tool output that was the final output: it is withheld, and the error and state keep neither it nor the outputInfo', async () => {
    const circular: Record<string, unknown> = { secret: `saw ${SECRET}` };
    circular.self = circular;
    const session = new MemorySession();
    const error = await failureOf(ledgerAgent([{ name: 'circular', execute: async () => ({ tripwireTriggered: true, outputInfo: circular }) }]), stream, session);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    const state = error.state as RunState<any, any>;
    expect(state.outputGuardrailResults.at(-1)?.output.outputInfo).toBeUndefined();
    expect(state.toString()).not.toContain(SECRET);
    const saved = JSON.stringify(await session.getItems());
    expect(saved).toContain(PLACEHOLDER);
    expect(saved).not.toContain(SECRET);
    // The caller's object is left as it was.
    expect(circular.secret).toBe(`saw ${SECRET}`);
  });

  it('only a sibling that throws (none tripped) leaves the tool output in place, and the session gets it', async () => {
    const session = new MemorySession();
    const error = await failureOf(ledgerAgent([passes, throwsWith(new Error('checker crashed'))]), stream, session);
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.message).toBe('Output guardrail "throws" failed to complete: checker crashed');
    expect(JSON.stringify(await session.getItems())).toContain(SECRET);
  });
});

describe.each([false, true])('a session that fails to save a run its output guardrails stopped (stream=%s)', (stream) => {
  it('is the tripwire error’s cause, as a bare copy with the placeholder when a tool output was withheld', async () => {
    const saveError = Object.assign(new Error(`Persistence rejected ${SECRET}`), { cause: new Error(SECRET), rejectedOutput: SECRET });
    const error = await failureOf(ledgerAgent([trips]), stream, new FailingSession(saveError));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).not.toBe(saveError);
    expect(error.cause.message).toBe(`Persistence rejected ${PLACEHOLDER}`);
    expect(error.cause.cause).toBeUndefined();
    expect(error.cause.rejectedOutput).toBeUndefined();
    expect(error.cause.stack).not.toContain(SECRET);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('is the GuardrailExecutionError’s cause when a sibling threw beside the trip', async () => {
    const error = await failureOf(ledgerAgent([trips, throwsWith(new Error('checker crashed'))]), stream, new FailingSession(new Error(`Persistence rejected ${SECRET}`)));
    expect(error).toBeInstanceOf(GuardrailExecutionError);
    expect(error.cause.message).toBe(`Persistence rejected ${PLACEHOLDER}`);
  });

  it('keeps no details for a structured output', async () => {
    const error = await failureOf(ledgerAgent([trips], z.object({ row: z.string() })), stream, new FailingSession(new Error(`Persistence rejected ${SECRET}`)));
    expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(error.cause.message).toBe('Error details are redacted.');
  });

  it('is the session’s own error when nothing was withheld (a message answer)', async () => {
    const saveError = new Error('disk full');
    const tripped = await failureOf(messageAgent([trips]), stream, new FailingSession(saveError));
    expect(tripped).toBeInstanceOf(OutputGuardrailTripwireTriggered);
    expect(tripped.cause).toBe(saveError);
    const failed = await failureOf(messageAgent([throwsWith(new Error('checker crashed'))]), stream, new FailingSession(saveError));
    expect(failed).toBeInstanceOf(GuardrailExecutionError);
    expect(failed.cause).toBe(saveError);
  });

  it('leaves the error without a cause when the save succeeds', async () => {
    const error = await failureOf(ledgerAgent([trips]), stream);
    expect(error.cause).toBeUndefined();
  });
});
