/**
 * Tool guardrails on the local tools (shell, apply-patch, computer): Baton runs a local tool's
 * `inputGuardrails` after its approval and before it acts, and its `outputGuardrails` on what it
 * produced before the model sees it, with the function tools' behaviours (`allow`, `rejectContent`
 * answering the model instead, `throwException` failing the run with `ToolCallError`). A shell
 * command or a patch is what a team most wants checked, so each case runs on all three tools.
 */
import { describe, expect, it } from 'vitest';
import {
  Agent,
  Runner,
  ToolCallError,
  ToolInputGuardrailTripwireTriggered,
  ToolOutputGuardrailTripwireTriggered,
  UserError,
  applyPatchTool,
  computerTool,
  run,
  shellTool,
  type AgentOutputItem,
  type ApplyPatchCallItem,
  type ComputerUseCallItem,
  type Editor,
  type Shell,
  type ShellAction,
  type ShellCallItem,
  type ToolGuardrailFunctionOutput,
} from '../src/index.js';
import { FakeComputer, ScriptedModel, assistantMessage } from '@baton/testing';

type Behavior = ToolGuardrailFunctionOutput['behavior'];
interface Seen {
  toolCall: unknown;
  output?: unknown;
}
interface Guards {
  input?: Behavior;
  output?: Behavior;
}

/** One local tool, made with the given guardrails, with what it did and what the model should see. */
interface LocalCase {
  name: 'shell' | 'apply_patch' | 'computer';
  call: AgentOutputItem & { callId: string };
  make(guards: Guards, seen: { input: Seen[]; output: Seen[] }, needsApproval?: boolean): { tool: any; acted: () => number };
  /** What the tool's raw output is, as its output guardrail receives it. */
  rawOutput: unknown;
  /** The output item the model gets when a guardrail answers with `message`. */
  refused(message: string): Record<string, unknown>;
  /** The output item the model gets when the tool ran and nothing was withheld. */
  ran: Record<string, unknown>;
}

function guardrails(guards: Guards, seen: { input: Seen[]; output: Seen[] }) {
  return {
    ...(guards.input
      ? { inputGuardrails: [{ name: 'check_call', run: async (args: { toolCall: unknown }) => (seen.input.push({ toolCall: args.toolCall }), { behavior: guards.input!, outputInfo: 'input checked' }) }] }
      : {}),
    ...(guards.output
      ? {
          outputGuardrails: [
            { name: 'check_output', run: async (args: { toolCall: unknown; output: unknown }) => (seen.output.push({ toolCall: args.toolCall, output: args.output }), { behavior: guards.output!, outputInfo: 'output checked' }) },
          ],
        }
      : {}),
  };
}

const shellCall: ShellCallItem = { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['cat secrets.txt'] } };
const patchCall: ApplyPatchCallItem = { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'create_file', path: 'notes.md', diff: '+hello' } };
const computerCall: ComputerUseCallItem = { type: 'computer_call', callId: 'c1', status: 'completed', actions: [{ type: 'click', x: 1, y: 2, button: 'left' }] };

const cases: LocalCase[] = [
  {
    name: 'shell',
    call: shellCall,
    make(guards, seen, needsApproval) {
      const ran: ShellAction[] = [];
      const shell: Shell = { run: async (action) => (ran.push(action), { output: [{ stdout: 'TOKEN=abc', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] }) };
      return { tool: shellTool({ shell, needsApproval: needsApproval ?? false, ...guardrails(guards, seen) }), acted: () => ran.length };
    },
    rawOutput: [{ stdout: 'TOKEN=abc', stderr: '', outcome: { type: 'exit', exitCode: 0 } }],
    refused: (message) => ({ type: 'shell_call_output', callId: 's1', output: [{ stdout: '', stderr: message, outcome: { type: 'exit', exitCode: null } }] }),
    ran: { type: 'shell_call_output', callId: 's1', output: [{ stdout: 'TOKEN=abc', stderr: '', outcome: { type: 'exit', exitCode: 0 } }] },
  },
  {
    name: 'apply_patch',
    call: patchCall,
    make(guards, seen, needsApproval) {
      let applied = 0;
      const editor: Editor = {
        createFile: async (operation) => (applied++, { output: `created ${operation.path}` }),
        updateFile: async () => ({ output: 'updated' }),
        deleteFile: async () => ({ output: 'deleted' }),
      };
      return { tool: applyPatchTool({ editor, needsApproval: needsApproval ?? false, ...guardrails(guards, seen) }), acted: () => applied };
    },
    rawOutput: 'created notes.md',
    refused: (message) => ({ type: 'apply_patch_call_output', callId: 'p1', status: 'failed', output: message }),
    ran: { type: 'apply_patch_call_output', callId: 'p1', status: 'completed', output: 'created notes.md' },
  },
  {
    name: 'computer',
    call: computerCall,
    make(guards, seen, needsApproval) {
      const computer = new FakeComputer();
      return { tool: computerTool({ computer, needsApproval: needsApproval ?? false, ...guardrails(guards, seen) }), acted: () => computer.actions.length };
    },
    rawOutput: undefined, // the FakeComputer's screenshot, checked as a base64 string below
    refused: (message) => ({ type: 'computer_call_result', callId: 'c1', output: { type: 'computer_screenshot', providerData: { approvalStatus: 'rejected', message } } }),
    ran: { type: 'computer_call_result', callId: 'c1', output: { type: 'computer_screenshot', data: expect.stringMatching(/^data:image\/png;base64,.+/) } },
  },
];

function agentWith(c: LocalCase, guards: Guards, needsApproval?: boolean) {
  const seen = { input: [] as Seen[], output: [] as Seen[] };
  const { tool, acted } = c.make(guards, seen, needsApproval);
  const model = new ScriptedModel([[c.call], [assistantMessage('done')]]);
  return { agent: new Agent({ name: 'Ops', model, tools: [tool] }), model, seen, acted };
}

/** The output item the model received for the call on its second turn. */
function outputSent(model: ScriptedModel, callId: string) {
  const input = model.lastCall!.request.input as Array<{ type?: string; callId?: string }>;
  return input.find((item) => item.type !== undefined && item.type.endsWith('_output') && item.callId === callId) ?? input.find((item) => item.type === 'computer_call_result' && item.callId === callId);
}

describe.each(cases)('$name tool guardrails', (c) => {
  it('an allowing input and output guardrail see the call and the raw output; the tool runs and the model gets its output', async () => {
    const { agent, model, seen, acted } = agentWith(c, { input: { type: 'allow' }, output: { type: 'allow' } });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(acted()).toBe(1);
    expect(seen.input).toEqual([{ toolCall: c.call }]);
    expect(seen.output).toHaveLength(1);
    expect(seen.output[0]!.toolCall).toEqual(c.call);
    if (c.rawOutput !== undefined) expect(seen.output[0]!.output).toEqual(c.rawOutput);
    else expect(seen.output[0]!.output).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(outputSent(model, c.call.callId)).toMatchObject(c.ran);
    expect(result.toolInputGuardrailResults).toEqual([{ guardrail: { type: 'tool_input', name: 'check_call' }, output: { behavior: { type: 'allow' }, outputInfo: 'input checked' } }]);
    expect(result.toolOutputGuardrailResults).toEqual([{ guardrail: { type: 'tool_output', name: 'check_output' }, output: { behavior: { type: 'allow' }, outputInfo: 'output checked' } }]);
  });

  it('an input guardrail that rejects the content stops the tool before it acts and answers the model with its message', async () => {
    const { agent, model, seen, acted } = agentWith(c, { input: { type: 'rejectContent', message: 'Not on this machine.' }, output: { type: 'allow' } });
    const result = await run(agent, 'go');
    expect(result.finalOutput).toBe('done');
    expect(acted()).toBe(0);
    expect(seen.output).toEqual([]);
    expect(outputSent(model, c.call.callId)).toMatchObject(c.refused('Not on this machine.'));
    const item = result.newItems.find((entry) => entry.type === 'tool_call_output_item')!;
    expect(item.rawItem).toMatchObject(c.refused('Not on this machine.'));
  });

  it('an output guardrail that rejects the content withholds what the tool produced from the model and from history', async () => {
    const { agent, model, acted } = agentWith(c, { output: { type: 'rejectContent', message: 'Output withheld: it holds a secret.' } });
    const result = await run(agent, 'go');
    expect(acted()).toBe(1);
    const sent = outputSent(model, c.call.callId) as Record<string, unknown>;
    if (c.name === 'apply_patch') {
      // The editor did change the file: the status stays, the message is replaced.
      expect(sent).toMatchObject({ type: 'apply_patch_call_output', status: 'completed', output: 'Output withheld: it holds a secret.' });
    } else {
      expect(sent).toMatchObject(c.refused('Output withheld: it holds a secret.'));
    }
    expect(JSON.stringify(result.history)).not.toContain('TOKEN=abc');
    expect(JSON.stringify(result.history)).not.toContain('created notes.md');
  });

  it.each([
    ['input', ToolInputGuardrailTripwireTriggered, 0],
    ['output', ToolOutputGuardrailTripwireTriggered, 1],
  ] as const)('a throwing %s guardrail fails the run with ToolCallError wrapping its tripwire', async (kind, Tripwire, actedCount) => {
    const { agent, acted } = agentWith(c, { [kind]: { type: 'throwException' } });
    const error = await run(agent, 'go').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).error).toBeInstanceOf(Tripwire);
    expect(acted()).toBe(actedCount);
  });

  it('runs the input guardrail after a human approved the call, not before asking (unless preApprovalInputGuardrails)', async () => {
    const { agent, seen, acted } = agentWith(c, { input: { type: 'allow' } }, true);
    const paused = await run(agent, 'go');
    expect(paused.interruptions).toHaveLength(1);
    expect(seen.input).toEqual([]);
    paused.state.approve(paused.interruptions[0]!);
    const done = await run(agent, paused.state);
    expect(done.finalOutput).toBe('done');
    expect(seen.input).toHaveLength(1);
    expect(acted()).toBe(1);
  });

  it('with preApprovalInputGuardrails, a rejecting input guardrail answers the model before a human is asked', async () => {
    const { agent, model, acted } = agentWith(c, { input: { type: 'rejectContent', message: 'Refused before review.' } }, true);
    const result = await new Runner({ toolExecution: { preApprovalInputGuardrails: true } }).run(agent, 'go');
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('done');
    expect(acted()).toBe(0);
    expect(outputSent(model, c.call.callId)).toMatchObject(c.refused('Refused before review.'));
  });
});

describe('local tool guardrail definitions', () => {
  const shell: Shell = { run: async () => ({ output: [] }) };

  it.each([
    ['not an array', { inputGuardrails: { name: 'x', run: async () => ({ behavior: { type: 'allow' } }) } }, 'shellTool "shell": `inputGuardrails` must be an array.'],
    ['an entry without a name', { outputGuardrails: [{ run: async () => ({ behavior: { type: 'allow' } }) }] }, 'shellTool "shell": `outputGuardrails[0]` must have a string `name`.'],
    ['an entry without run', { inputGuardrails: [{ name: 'check' }] }, 'shellTool "shell": `inputGuardrails[0]` ("check") `run` must be a function, got undefined.'],
  ])('refuses %s with a UserError naming the tool and the entry', (_label, options, message) => {
    expect(() => shellTool({ shell, ...(options as object) })).toThrow(new UserError(message));
  });

  it('refuses guardrails on a hosted shell (OpenAI runs its commands: nothing here could check them)', () => {
    expect(() => shellTool({ environment: { type: 'container_auto' }, inputGuardrails: [{ name: 'x', run: async () => ({ behavior: { type: 'allow' } }) }] } as never)).toThrow(
      /hosted environment does not support inputGuardrails or outputGuardrails/,
    );
  });

  it('names the apply-patch and computer tools in their errors', () => {
    const editor: Editor = { createFile: async () => undefined, updateFile: async () => undefined, deleteFile: async () => undefined };
    expect(() => applyPatchTool({ editor, inputGuardrails: 'no' as never })).toThrow('applyPatchTool "apply_patch": `inputGuardrails` must be an array.');
    expect(() => computerTool({ computer: new FakeComputer(), name: 'screen', outputGuardrails: [null as never] })).toThrow('computerTool "screen": `outputGuardrails[0]` must have a string `name`.');
  });
});
