import { describe, expect, it } from 'vitest';
import * as Cause from 'effect/Cause';
import { DBOSJSON, DBOSPortableJSON, deserializeResError, serializeResErrorWithSerializer } from '@dbos-inc/dbos-sdk/internal/serialization';
import { ExternalFailure } from '@baton/core/internal';
import { AgentsError, ModelTimeoutError, ToolCallError, ToolTimeoutError } from '@baton/types';
import { knownClasses, StepFailed, stepFailureOf } from '../src/internal/stepFailure.js';

// What a replay gets back: a step's failure thrown through DBOS, recorded the way DBOS records a
// failed step (its default serialization and its portable one), read back, and turned into a cause.
class RefundRefused extends Error {
  constructor(readonly orderId: string) {
    super(`Refund of ${orderId} refused`);
    this.name = 'RefundRefused';
  }
}
/** A provider's own error, a class the worker was not told about. */
class AcmeProviderError extends AgentsError {
  readonly status = 503;
  readonly retryable = true;
}

async function replayed(cause: Cause.Cause<unknown>, serializer: typeof DBOSJSON | typeof DBOSPortableJSON = DBOSJSON, classes = knownClasses()): Promise<Cause.Cause<unknown>> {
  const recorded = await serializeResErrorWithSerializer(new StepFailed(cause), serializer as never, serializer.name());
  const error = await deserializeResError(recorded.serializedValue, recorded.serialization, serializer as never).catch((thrown: unknown) => thrown);
  expect(error).not.toBeInstanceOf(StepFailed);
  const failure = stepFailureOf(error, classes);
  expect(failure, 'the recorded error is read as a step failure').toBeDefined();
  return failure!;
}

const own = (error: object) => Object.fromEntries(Object.entries(error));

describe('a failed step, recorded and replayed', () => {
  it('comes back as the same class with the same name, message, stack and fields, through either of DBOS’s serializations', async () => {
    const live = new ModelTimeoutError({ timeoutMs: 1234, cause: new TypeError('socket hang up') });
    for (const serializer of [DBOSJSON, DBOSPortableJSON]) {
      const error = Cause.findErrorOption(await replayed(Cause.fail(live), serializer));
      expect(error._tag).toBe('Some');
      const back = (error as { value: ModelTimeoutError }).value;
      expect(back).toBeInstanceOf(ModelTimeoutError);
      expect(back).toBeInstanceOf(AgentsError);
      expect([back.name, back._tag, back.message, back.stack, back.code, back.timeoutMs]).toEqual([live.name, live._tag, live.message, live.stack, 'ETIMEDOUT', 1234]);
      expect(back.cause).toBeInstanceOf(TypeError);
      expect((back.cause as Error).message).toBe('socket hang up');
      expect(Object.keys(back).sort()).toEqual(Object.keys(live).sort());
    }
  });

  it('keeps core’s wrapper of an outside error, and the error it wraps, so the run hands the caller the same error', async () => {
    const inner = new RefundRefused('1234');
    const back = Cause.squash(await replayed(Cause.fail(new ExternalFailure({ cause: inner })), DBOSJSON, knownClasses([RefundRefused])));
    expect(back).toBeInstanceOf(ExternalFailure);
    const cause = (back as ExternalFailure).cause;
    expect(cause).toBeInstanceOf(RefundRefused);
    expect(own(cause as object)).toEqual(own(inner));
    expect((cause as Error).message).toBe(inner.message);
  });

  it('an error of a class it was not told about comes back as the nearest known class up its chain, with its name, tag and fields', async () => {
    const live = new AcmeProviderError('Service unavailable');
    const back = Cause.squash(await replayed(Cause.fail(live))) as AcmeProviderError;
    expect(back).toBeInstanceOf(AgentsError);
    expect(back).not.toBeInstanceOf(AcmeProviderError);
    expect({ name: back.name, tag: back._tag, message: back.message, status: back.status, retryable: back.retryable }).toEqual({ name: 'AcmeProviderError', tag: 'AcmeProviderError', message: 'Service unavailable', status: 503, retryable: true });
    // Told about it: the class itself.
    expect(Cause.squash(await replayed(Cause.fail(live), DBOSJSON, knownClasses([AcmeProviderError])))).toBeInstanceOf(AcmeProviderError);
  });

  it('keeps every reason of the cause: failures with their nested errors, defects, interruptions; values that are not errors as JSON', async () => {
    const tool = new ToolCallError('Tool refund_order failed', new RefundRefused('9'));
    const cause = Cause.fromReasons<unknown>([Cause.makeFailReason<unknown>(tool), Cause.makeDieReason(new RangeError('bad index')), Cause.makeInterruptReason(7), Cause.makeFailReason({ code: 'E_PLAIN', detail: [1, 'two'] })]);
    const back = await replayed(cause);
    expect(back.reasons.map((reason) => reason._tag)).toEqual(['Fail', 'Die', 'Interrupt', 'Fail']);
    const [fail, die, , plain] = back.reasons as [Cause.Fail<unknown>, Cause.Die, Cause.Interrupt, Cause.Fail<unknown>];
    expect(fail.error).toBeInstanceOf(ToolCallError);
    expect((fail.error as ToolCallError).error).toBeInstanceOf(Error);
    expect((fail.error as ToolCallError).error).toMatchObject({ name: 'RefundRefused', message: 'Refund of 9 refused', orderId: '9' });
    expect(die.defect).toBeInstanceOf(RangeError);
    expect(plain.error).toEqual({ code: 'E_PLAIN', detail: [1, 'two'] });
  });

  it('a run state attached to an error is not recorded (the replay rebuilds its own); an error of DBOS or the database is no step failure', async () => {
    const live = new ToolTimeoutError({ toolName: 'refund_order', timeoutMs: 50 });
    (live as { state?: unknown }).state = { huge: 'state' };
    const back = Cause.squash(await replayed(Cause.fail(live))) as ToolTimeoutError;
    expect(back).toBeInstanceOf(ToolTimeoutError);
    expect(back.state).toBeUndefined();
    expect([back.toolName, back.timeoutMs]).toEqual(['refund_order', 50]);
    expect(stepFailureOf(new Error('connection terminated'), knownClasses())).toBeUndefined();
    expect(stepFailureOf(Object.assign(new Error('x'), { name: 'StepFailed', data: 'not json' }), knownClasses())).toBeUndefined();
  });
});
