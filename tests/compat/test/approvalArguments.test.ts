import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onBoth, type SdkUnderTest } from './sdks.js';

// A function tool's arguments on the way to an approval: they are validated before the run asks
// about approval (once: `execute` then receives them as read), a dynamic `needsApproval` is asked
// about them as `execute` would receive them, and arguments the schema refuses are put to a person
// without asking the policy. The same program on both SDKs, a table of policies and arguments.

type Policy = 'always' | 'dynamic-yes' | 'dynamic-no';

interface Case {
  name: string;
  policy: Policy;
  /** The call's arguments as the model sent them. */
  args: Record<string, unknown>;
  /** Approve (or reject) when the run pauses. */
  decide?: 'approve' | 'reject';
  /** Resume from the state written and read back (`toString` / `RunState.fromString`), not the object in memory. */
  roundTrip?: boolean;
  /** The model calls the tool a second time after the first call's decision. */
  callAgain?: boolean;
}

const CASES: Case[] = [
  { name: 'static approval, approved on resume', policy: 'always', args: { value: null }, decide: 'approve' },
  { name: 'static approval, rejected on resume', policy: 'always', args: { value: 'x' }, decide: 'reject' },
  { name: 'dynamic policy that asks, approved', policy: 'dynamic-yes', args: { value: null }, decide: 'approve' },
  { name: 'dynamic policy that does not ask', policy: 'dynamic-no', args: { value: null } },
  { name: 'dynamic policy, arguments the schema refuses (approved)', policy: 'dynamic-no', args: { value: 42 }, decide: 'approve' },
  { name: 'static approval, arguments the schema refuses (approved)', policy: 'always', args: { value: 42 }, decide: 'approve' },
  { name: 'dynamic policy that asks, approved, resumed from the written state', policy: 'dynamic-yes', args: { value: 'x' }, decide: 'approve', roundTrip: true },
  { name: 'static approval, approved, resumed from the written state', policy: 'always', args: { value: null }, decide: 'approve', roundTrip: true },
  { name: 'dynamic policy that asks, rejected, then called again', policy: 'dynamic-yes', args: { value: 'x' }, decide: 'reject', callAgain: true },
];

/** One run of the case on `sdk`: what validate saw, what the policy and execute received, what the model was told. */
async function runCase({ sdk, testing }: SdkUnderTest, c: Case) {
  const log: string[] = [];
  type Input = { value?: string | null };
  // A Standard Schema that fills in a default, so the value `execute` receives differs from the JSON.
  const parameters = {
    '~standard': {
      version: 1,
      vendor: 'compat',
      jsonSchema: {
        input: () => ({ type: 'object', properties: { value: { type: ['string', 'null'] } }, required: ['value'], additionalProperties: false }),
        output: () => ({ type: 'object' }),
      },
      validate: (input: unknown) => {
        log.push(`validate ${JSON.stringify(input)}`);
        const value = (input as Input | undefined)?.value;
        if (value !== undefined && value !== null && typeof value !== 'string') return { issues: [{ message: 'value must be a string' }] };
        return { value: { value: value ?? 'default' } };
      },
    },
  };
  const needsApproval =
    c.policy === 'always'
      ? true
      : async (_context: unknown, input: unknown) => {
          log.push(`policy ${JSON.stringify(input)}`);
          // The policy edits what it was given: `execute` must not see it.
          if (input && typeof input === 'object') (input as { value?: unknown }).value = 'edited by policy';
          return c.policy === 'dynamic-yes';
        };
  const guarded = sdk.tool({
    name: 'guarded',
    description: 'A tool behind an approval.',
    parameters: parameters as never,
    needsApproval: needsApproval as never,
    execute: async (input: unknown) => {
      log.push(`execute ${JSON.stringify(input)}`);
      return 'ran';
    },
  });
  const turns: unknown[][] = [[testing.functionCall('guarded', c.args, { callId: 'c1' })]];
  if (c.callAgain) turns.push([testing.functionCall('guarded', c.args, { callId: 'c2' })]);
  turns.push([testing.assistantMessage('done')]);
  const model = new testing.ScriptedModel(turns as never);
  const agent = new sdk.Agent({ name: 'A', model, tools: [guarded] });
  let result: any = await sdk.run(agent, 'go');
  const paused = result.interruptions.length;
  if (paused > 0 && c.decide !== undefined) {
    log.push('-- resume');
    const state = c.roundTrip ? await sdk.RunState.fromString(agent, result.state.toString()) : result.state;
    const pending = c.roundTrip ? state.getInterruptions()[0] : result.interruptions[0];
    if (c.decide === 'approve') state.approve(pending);
    else state.reject(pending, { alwaysReject: true });
    result = await sdk.run(agent, state);
    log.push(`paused again ${result.interruptions.length}`);
  }
  const input = (model.lastCall?.request.input ?? []) as Array<{ type?: string; callId?: string; output?: { text?: string } | string }>;
  const sent = input.find((item) => item.type === 'function_call_result' && item.callId === 'c1')?.output;
  const told = typeof sent === 'string' ? sent : sent?.text;
  return { log, paused, finalOutput: result.finalOutput ?? null, told: told?.includes('Invalid input') ? 'invalid input' : (told ?? null) };
}

describe('a function tool’s arguments before its approval (same on both SDKs)', () => {
  it.each(CASES)('$name', async (c) => {
    const both = await onBoth((under: SdkUnderTest) => runCase(under, c));
    expect(both.baton).toEqual(both.reference);
  });

  it('the arguments are validated once before the pause and once when the approved call runs', async () => {
    const both = await onBoth((under: SdkUnderTest) => runCase(under, CASES[0]!));
    expect(both.reference.log).toEqual(['validate {"value":null}', '-- resume', 'validate {"value":null}', 'execute {"value":"default"}', 'paused again 0']);
    expect(both.baton).toEqual(both.reference);
  });

  it('a dynamic policy is asked about the arguments as execute receives them; a call it lets through is validated once', async () => {
    const both = await onBoth((under: SdkUnderTest) => runCase(under, CASES[3]!));
    expect(both.reference.log).toEqual(['validate {"value":null}', 'policy {"value":"default"}', 'execute {"value":"default"}']);
    expect(both.baton).toEqual(both.reference);
  });

  it('zod: a dynamic policy sees the parsed value (defaults filled in), on both SDKs', async () => {
    const both = await onBoth(async ({ sdk, testing }: SdkUnderTest) => {
      const seen: unknown[] = [];
      const zodTool = sdk.tool({
        name: 'zod_tool',
        description: '',
        parameters: z.object({ count: z.number(), unit: z.string().nullable().default('items') }),
        needsApproval: async (_context: unknown, input: unknown) => (seen.push(input), false),
        execute: async (input: unknown) => (seen.push(input), 'ok'),
      });
      const model = new testing.ScriptedModel([[testing.functionCall('zod_tool', { count: 2 }, { callId: 'z1' })], [testing.assistantMessage('done')]]);
      await sdk.run(new sdk.Agent({ name: 'A', model, tools: [zodTool] }), 'go');
      return seen;
    });
    expect(both.baton).toEqual(both.reference);
  });
});
