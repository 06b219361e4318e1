import { describe, expect, it } from 'vitest';
import {
  Agent,
  ModelBehaviorError,
  RunState,
  Runner,
  applyPatchTool,
  computerTool,
  run,
  shellTool,
  type ApplyPatchCallItem,
  type ComputerUseCallItem,
  type Editor,
  type Shell,
  type ShellAction,
  type ShellCallItem,
} from '../src/index.js';
import { FakeComputer, ScriptedModel, assistantMessage } from '@baton/testing';

function shellCall(callId: string, commands: string[]): ShellCallItem {
  return { type: 'shell_call', callId, status: 'completed', action: { commands } };
}

function patchCall(callId: string, operation: ApplyPatchCallItem['operation']): ApplyPatchCallItem {
  return { type: 'apply_patch_call', callId, status: 'completed', operation };
}

function computerCall(callId: string, actions: NonNullable<ComputerUseCallItem['actions']>, providerData?: Record<string, unknown>): ComputerUseCallItem {
  return { type: 'computer_call', callId, status: 'completed', actions, ...(providerData ? { providerData } : {}) };
}

/** A shell that echoes each command back, and records what it ran. */
class RecordingShell implements Shell {
  readonly ran: ShellAction[] = [];
  async run(action: ShellAction) {
    this.ran.push(action);
    return { output: action.commands.map((command) => ({ stdout: `ran ${command}`, stderr: '', outcome: { type: 'exit' as const, exitCode: 0 } })) };
  }
}

/** An editor over an in-memory file map; an update whose diff does not start with `+` fails. */
class MapEditor implements Editor {
  readonly files = new Map<string, string>();
  async createFile(op: { path: string; diff: string }) {
    this.files.set(op.path, op.diff.replace(/^\+/gm, ''));
    return { output: `created ${op.path}` };
  }
  async updateFile(op: { path: string; diff: string }) {
    if (!this.files.has(op.path)) throw new Error(`No such file: ${op.path}`);
    throw new Error(`The patch does not apply to ${op.path}`);
  }
  async deleteFile(op: { path: string }) {
    this.files.delete(op.path);
  }
}

describe('shellTool in the run loop', () => {
  it('pauses on a shell call needing approval, survives toString/fromString, and runs the command once when approved', async () => {
    const shell = new RecordingShell();
    const tool = shellTool({ shell, needsApproval: true });
    const model = new ScriptedModel([[shellCall('s1', ['ls -la'])], [assistantMessage('listed')]]);
    const agent = new Agent({ name: 'Ops', model, tools: [tool] });

    const paused = await run(agent, 'list files');
    expect(shell.ran).toEqual([]);
    expect(paused.interruptions).toHaveLength(1);
    const approval = paused.interruptions[0]!;
    expect(approval.toolName).toBe('shell');
    expect(approval.name).toBe('shell');
    expect((approval.rawItem as ShellCallItem).action.commands).toEqual(['ls -la']);

    // A new process: the state as text, read back against the same agent graph.
    const restored = await RunState.fromString(agent, paused.state.toString());
    expect(restored.getInterruptions().map((item) => (item.rawItem as ShellCallItem).action.commands)).toEqual([['ls -la']]);
    restored.approve(restored.getInterruptions()[0]!);
    const done = await run(agent, restored);

    expect(done.finalOutput).toBe('listed');
    expect(shell.ran).toEqual([{ commands: ['ls -la'] }]);
    const output = done.newItems.find((item) => item.type === 'tool_call_output_item')!;
    expect(output.rawItem).toMatchObject({ type: 'shell_call_output', callId: 's1', output: [{ stdout: 'ran ls -la', outcome: { type: 'exit', exitCode: 0 } }] });
    // The model saw the call and its output on the next turn.
    const input = model.lastCall!.request.input as Array<{ type?: string }>;
    expect(input.map((item) => item.type)).toEqual(expect.arrayContaining(['shell_call', 'shell_call_output']));
  });

  it('answers a rejected shell call with the rejection as stderr, without running it', async () => {
    const shell = new RecordingShell();
    const model = new ScriptedModel([[shellCall('s1', ['rm -rf /'])], [assistantMessage('ok, I will not')]]);
    const agent = new Agent({ name: 'Ops', model, tools: [shellTool({ shell, needsApproval: async (_ctx, action) => action.commands.some((c) => c.startsWith('rm')) })] });
    const paused = await run(agent, 'clean up');
    paused.state.reject(paused.interruptions[0]!, { message: 'Deleting the root is not allowed.' });
    const done = await run(agent, paused.state);
    expect(shell.ran).toEqual([]);
    const output = done.newItems.find((item) => item.type === 'tool_call_output_item')!;
    expect(output.rawItem).toMatchObject({ type: 'shell_call_output', output: [{ stdout: '', stderr: 'Deleting the root is not allowed.', outcome: { type: 'exit', exitCode: null } }] });
  });

  it('decides in code with onApproval, and alwaysApprove lets later calls run without asking', async () => {
    const shell = new RecordingShell();
    const asked: string[] = [];
    const tool = shellTool({
      shell,
      needsApproval: true,
      onApproval: async (_ctx, item) => {
        asked.push(item.callId);
        return { approve: true };
      },
    });
    const model = new ScriptedModel([[shellCall('s1', ['date'])], [assistantMessage('done')]]);
    const done = await run(new Agent({ name: 'Ops', model, tools: [tool] }), 'date?');
    expect(asked).toEqual(['s1']);
    expect(shell.ran).toHaveLength(1);
    expect(done.finalOutput).toBe('done');

    const shell2 = new RecordingShell();
    const model2 = new ScriptedModel([[shellCall('a', ['pwd'])], [shellCall('b', ['whoami'])], [assistantMessage('both')]]);
    const agent2 = new Agent({ name: 'Ops', model: model2, tools: [shellTool({ shell: shell2, needsApproval: true })] });
    const paused = await run(agent2, 'go');
    paused.state.approve(paused.interruptions[0]!, { alwaysApprove: true });
    const finished = await run(agent2, paused.state);
    expect(finished.interruptions).toEqual([]);
    expect(shell2.ran.map((a) => a.commands[0])).toEqual(['pwd', 'whoami']);
  });

  it('reports a shell that throws (a timeout, a crash) to the model as stderr; the run goes on', async () => {
    const shell: Shell = { run: async () => Promise.reject(new Error('command timed out after 100 ms')) };
    const model = new ScriptedModel([[shellCall('s1', ['sleep 100'])], [assistantMessage('it hung')]]);
    const done = await run(new Agent({ name: 'Ops', model, tools: [shellTool({ shell })] }), 'wait');
    expect(done.finalOutput).toBe('it hung');
    expect(done.newItems.find((item) => item.type === 'tool_call_output_item')!.rawItem).toMatchObject({
      output: [{ stdout: '', stderr: 'command timed out after 100 ms', outcome: { type: 'exit', exitCode: null } }],
    });
  });

  it('announces the call, the approval and the output as stream events, and emits the tool lifecycle hooks', async () => {
    const shell = new RecordingShell();
    const model = new ScriptedModel([[shellCall('s1', ['echo hi'])], [assistantMessage('said hi')]]);
    const tool = shellTool({ shell });
    const agent = new Agent({ name: 'Ops', model, tools: [tool] });
    const runner = new Runner();
    const hooks: string[] = [];
    runner.on('agent_tool_start', (_ctx, _agent, t, details) => hooks.push(`start ${t.name} ${(details.toolCall as ShellCallItem).callId}`));
    runner.on('agent_tool_end', (_ctx, _agent, t, result) => hooks.push(`end ${t.name} ${result}`));
    const streamed = await runner.run(agent, 'hi', { stream: true });
    const names: string[] = [];
    for await (const event of streamed) if (event.type === 'run_item_stream_event') names.push(event.name);
    expect(names).toEqual(['tool_called', 'tool_output', 'message_output_created']);
    expect(hooks).toEqual(['start shell s1', `end shell ${JSON.stringify([{ stdout: 'ran echo hi', stderr: '', outcome: { type: 'exit', exitCode: 0 } }])}`]);
  });

  it('fails the run with ModelBehaviorError when the model calls a shell the agent does not have', async () => {
    const model = new ScriptedModel([[shellCall('s1', ['ls'])]]);
    await expect(run(new Agent({ name: 'NoShell', model }), 'ls')).rejects.toBeInstanceOf(ModelBehaviorError);
  });

  it('offers the shell tool to the model with its environment', async () => {
    const model = new ScriptedModel([[assistantMessage('ok')]]);
    await run(new Agent({ name: 'Ops', model, tools: [shellTool({ shell: new RecordingShell() })] }), 'hi');
    expect(model.lastCall!.request.tools).toEqual([{ type: 'shell', name: 'shell', environment: { type: 'local' } }]);
  });
});

describe('applyPatchTool in the run loop', () => {
  it('applies a created file and reports an update that does not apply as a failed output, file untouched', async () => {
    const editor = new MapEditor();
    const model = new ScriptedModel([
      [patchCall('p1', { type: 'create_file', path: 'a.txt', diff: '+hello' }), patchCall('p2', { type: 'update_file', path: 'a.txt', diff: '@@ nope\n-x\n+y' })],
      [assistantMessage('patched')],
    ]);
    const done = await run(new Agent({ name: 'Dev', model, tools: [applyPatchTool({ editor })] }), 'edit');
    const outputs = done.newItems.filter((item) => item.type === 'tool_call_output_item').map((item) => item.rawItem);
    expect(outputs).toEqual([
      { type: 'apply_patch_call_output', callId: 'p1', status: 'completed', output: 'created a.txt' },
      { type: 'apply_patch_call_output', callId: 'p2', status: 'failed', output: 'The patch does not apply to a.txt' },
    ]);
    expect(editor.files.get('a.txt')).toBe('hello');
    expect(done.finalOutput).toBe('patched');
  });

  it('pauses on a patch needing approval (the item carries the operation) and a rejection leaves the file alone', async () => {
    const editor = new MapEditor();
    const model = new ScriptedModel([[patchCall('p1', { type: 'delete_file', path: 'keep.txt' })], [assistantMessage('kept')]]);
    editor.files.set('keep.txt', 'important');
    const agent = new Agent({ name: 'Dev', model, tools: [applyPatchTool({ editor, needsApproval: true })] });
    const paused = await run(agent, 'delete it');
    expect((paused.interruptions[0]!.rawItem as ApplyPatchCallItem).operation).toEqual({ type: 'delete_file', path: 'keep.txt' });
    const restored = await RunState.fromString(agent, paused.state.toString());
    restored.reject(restored.getInterruptions()[0]!);
    const done = await run(agent, restored);
    expect(editor.files.get('keep.txt')).toBe('important');
    expect(done.newItems.find((item) => item.type === 'tool_call_output_item')!.rawItem).toMatchObject({ type: 'apply_patch_call_output', status: 'failed' });
  });
});

describe('computerTool in the run loop', () => {
  it('performs the actions and answers with the screenshot as an image; the model is told the display', async () => {
    const computer = new FakeComputer({ environment: 'browser', dimensions: [800, 600] });
    const model = new ScriptedModel([[computerCall('c1', [{ type: 'click', x: 1, y: 2, button: 'left' }, { type: 'type', text: 'hi' }])], [assistantMessage('clicked')]]);
    const done = await run(new Agent({ name: 'Browser', model, tools: [computerTool({ computer })] }), 'click');
    expect(computer.actions.map((a) => a.type)).toEqual(['click', 'type']);
    expect(computer.runsStarted).toBe(1);
    const output = done.newItems.find((item) => item.type === 'tool_call_output_item')!;
    expect(output.rawItem).toMatchObject({ type: 'computer_call_result', callId: 'c1', output: { type: 'computer_screenshot' } });
    expect((output.rawItem as { output: { data: string } }).output.data).toMatch(/^data:image\/png;base64,./);
    expect(model.firstCall!.request.tools).toEqual([{ type: 'computer', name: 'computer_use_preview', environment: 'browser', dimensions: [800, 600] }]);
  });

  it('answers an action the computer refuses with an empty image; the run goes on', async () => {
    const computer = new FakeComputer().refuseAction('click', 'not here');
    const model = new ScriptedModel([[computerCall('c1', [{ type: 'click', x: 1, y: 2, button: 'left' }])], [assistantMessage('could not click')]]);
    const done = await run(new Agent({ name: 'Browser', model, tools: [computerTool({ computer })] }), 'click');
    expect(done.finalOutput).toBe('could not click');
    expect(done.newItems.find((item) => item.type === 'tool_call_output_item')!.rawItem).toMatchObject({ output: { type: 'computer_screenshot', data: '' } });
  });

  it('acknowledges safety checks through onSafetyCheck, or rejects the call when it answers false', async () => {
    const checks = { pending_safety_checks: [{ id: 'sc1', code: 'malicious_instructions', message: 'careful' }] };
    const computer = new FakeComputer();
    const model = new ScriptedModel([[computerCall('c1', [{ type: 'wait' }], checks)], [assistantMessage('waited')]]);
    const done = await run(new Agent({ name: 'B', model, tools: [computerTool({ computer, onSafetyCheck: async () => true })] }), 'wait');
    expect(done.newItems.find((item) => item.type === 'tool_call_output_item')!.rawItem.providerData).toEqual({
      acknowledgedSafetyChecks: [{ id: 'sc1', code: 'malicious_instructions', message: 'careful' }],
    });

    const untouched = new FakeComputer();
    const model2 = new ScriptedModel([[computerCall('c2', [{ type: 'click', x: 0, y: 0, button: 'left' }], checks)], [assistantMessage('stopped')]]);
    const rejected = await run(new Agent({ name: 'B', model: model2, tools: [computerTool({ computer: untouched, onSafetyCheck: async () => false })] }), 'click');
    expect(untouched.actions).toEqual([]);
    expect(rejected.newItems.map((item) => item.type)).toEqual(['tool_call_item', 'tool_call_output_item', 'message_output_item', 'message_output_item']);
  });

  it('makes a computer per run from an initializer and disposes it when the run ends, not while paused', async () => {
    const disposed: FakeComputer[] = [];
    const made: FakeComputer[] = [];
    const tool = computerTool({
      computer: {
        create: () => {
          const computer = new FakeComputer();
          made.push(computer);
          return computer;
        },
        dispose: ({ computer }) => void disposed.push(computer as FakeComputer),
      },
      needsApproval: true,
    });
    const model = new ScriptedModel([[computerCall('c1', [{ type: 'wait' }])], [assistantMessage('done')]]);
    const agent = new Agent({ name: 'B', model, tools: [tool] });
    const paused = await run(agent, 'wait');
    expect(made).toHaveLength(1);
    expect(disposed).toEqual([]);
    paused.state.approve(paused.interruptions[0]!);
    await run(agent, paused.state);
    expect(made).toHaveLength(1);
    expect(disposed).toEqual([made[0]]);
  });
});

describe('local tool call ids', () => {
  it('fails the run when a committed shell call id comes back with another command, and runs nothing for it', async () => {
    const shell = new RecordingShell();
    const model = new ScriptedModel([[shellCall('same', ['echo safe'])], [shellCall('same', ['echo changed'])]]);
    const agent = new Agent({ name: 'Ops', model, tools: [shellTool({ shell, needsApproval: true })] });
    const paused = await run(agent, 'go');
    paused.state.approve(paused.interruptions[0]!);
    await expect(run(agent, paused.state)).rejects.toBeInstanceOf(ModelBehaviorError);
    expect(shell.ran).toEqual([{ commands: ['echo safe'] }]);
  });

  it('does not run the same shell invocation twice when the model repeats it with its call id', async () => {
    const shell = new RecordingShell();
    const model = new ScriptedModel([[shellCall('once', ['date'])], [shellCall('once', ['date'])], [assistantMessage('done')]]);
    const done = await run(new Agent({ name: 'Ops', model, tools: [shellTool({ shell })] }), 'go');
    expect(done.finalOutput).toBe('done');
    expect(shell.ran).toHaveLength(1);
  });
});
