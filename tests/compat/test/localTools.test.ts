import { describe, expect, it } from 'vitest';
import { FakeOpenAIServer, fakeItems, fakeText, type FakeTurn } from '@baton/testing';
import { onBoth, type SdkUnderTest } from './sdks.js';

// The shell, apply-patch and computer tools on both SDKs against the fake Responses API: the
// human-in-the-loop flow for a shell command (pause, state as text, a new RunState, approve, the
// command runs once), the approval item, the run items, and what goes back to the model.

async function withServer<T>(turns: FakeTurn[], program: (server: FakeOpenAIServer) => Promise<T>): Promise<T> {
  const server = await FakeOpenAIServer.start({ turns });
  try {
    return await program(server);
  } finally {
    await server.close();
  }
}

function runner(under: SdkUnderTest, server: FakeOpenAIServer) {
  const provider = new under.sdk.OpenAIProvider({ apiKey: 'sk-test', baseURL: server.baseURL, useResponses: true });
  return new under.sdk.Runner({ modelProvider: provider, tracingDisabled: true } as never);
}

const itemsOf = (items: any[]) => items.map((item) => ({ type: item.type, rawItem: item.rawItem }));

const shellCall = { id: 'sh_1', type: 'shell_call', call_id: 'call_sh', status: 'completed', action: { commands: ['ls -la'], timeout_ms: 1000 } };
const patchCall = { id: 'ap_1', type: 'apply_patch_call', call_id: 'call_ap', status: 'completed', operation: { type: 'create_file', path: 'a.txt', diff: '+hello' } };
const computerCall = {
  id: 'cu_1',
  type: 'computer_call',
  call_id: 'call_cu',
  status: 'completed',
  action: { type: 'click', x: 10, y: 20, button: 'left' },
  pending_safety_checks: [],
};

function localTools(under: SdkUnderTest, ran: string[]) {
  const { sdk } = under;
  const shell = { run: async (action: { commands: string[] }) => ((ran.push(...action.commands)), { output: action.commands.map((c) => ({ stdout: `ran ${c}`, stderr: '', outcome: { type: 'exit' as const, exitCode: 0 } })) }) };
  const editor = {
    createFile: async (op: { path: string }) => ((ran.push(`create ${op.path}`)), { status: 'completed' as const, output: `created ${op.path}` }),
    updateFile: async () => ({ status: 'completed' as const }),
    deleteFile: async () => ({ status: 'completed' as const }),
  };
  const computer = {
    environment: 'browser' as const,
    dimensions: [800, 600] as [number, number],
    screenshot: async () => 'iVBORw0KGgo=',
    click: async (x: number, y: number) => void ran.push(`click ${x},${y}`),
    doubleClick: async () => {},
    scroll: async () => {},
    type: async () => {},
    wait: async () => {},
    move: async () => {},
    keypress: async () => {},
    drag: async () => {},
  };
  return [
    sdk.shellTool({ shell, needsApproval: true } as never),
    sdk.applyPatchTool({ editor } as never),
    sdk.computerTool({ computer } as never),
  ];
}

describe('local tools (same on both SDKs)', () => {
  it('human in the loop for a shell command: pause, state as text, a new RunState, approve, the command runs once', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([shellCall]), fakeText('listed')], async (server) => {
        const ran: string[] = [];
        const agent = new under.sdk.Agent({ name: 'Ops', instructions: 'Run commands.', tools: localTools(under, ran) });
        const first = await runner(under, server).run(agent, 'list files');
        const approval = first.interruptions[0] as any;
        const pending = { toolName: approval.toolName, name: approval.name, arguments: approval.arguments, rawItem: approval.rawItem, ranBefore: [...ran] };
        const restored = await under.sdk.RunState.fromString(agent, first.state.toString());
        restored.approve(restored.getInterruptions()[0] as never);
        const done = await runner(under, server).run(agent, restored);
        return {
          pending,
          ran,
          finalOutput: done.finalOutput,
          items: itemsOf(done.newItems as any[]),
          requests: server.requests.map((r) => r.body),
        };
      }),
    );
    expect(both.baton.pending).toEqual(both.reference.pending);
    expect(both.baton.pending.rawItem.action.commands).toEqual(['ls -la']);
    expect(both.baton.ran).toEqual(['ls -la']);
    expect(both.baton.finalOutput).toBe('listed');
    expect(both.baton.items).toEqual(both.reference.items);
    expect(both.baton.requests).toEqual(both.reference.requests);
  });

  it('a rejected shell command: the model is told, nothing runs', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([shellCall]), fakeText('ok')], async (server) => {
        const ran: string[] = [];
        const agent = new under.sdk.Agent({ name: 'Ops', tools: localTools(under, ran) });
        const first = await runner(under, server).run(agent, 'list files');
        first.state.reject(first.interruptions[0] as never);
        const done = await runner(under, server).run(agent, first.state);
        return { ran, items: itemsOf(done.newItems as any[]), sentBack: (server.requests[1]!.body as { input: unknown[] }).input };
      }),
    );
    expect(both.baton.ran).toEqual([]);
    expect(both.baton.items).toEqual(both.reference.items);
    expect(both.baton.sentBack).toEqual(both.reference.sentBack);
  });

  it('a patch and a computer action: outputs (the screenshot as an image), items and the request sent back', async () => {
    const both = await onBoth((under) =>
      withServer([fakeItems([patchCall, computerCall]), fakeText('done')], async (server) => {
        const ran: string[] = [];
        const agent = new under.sdk.Agent({ name: 'Dev', model: 'computer-use-preview', tools: localTools(under, ran) });
        const done = await runner(under, server).run(agent, 'edit and click');
        return { ran, items: itemsOf(done.newItems as any[]), requests: server.requests.map((r) => r.body) };
      }),
    );
    expect(both.baton.ran).toEqual(['click 10,20', 'create a.txt']); // the computer's calls first, as the reference runs them
    expect(both.baton.items).toEqual(both.reference.items);
    expect(both.baton.requests).toEqual(both.reference.requests);
  });
});
