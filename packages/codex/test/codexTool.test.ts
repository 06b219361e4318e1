import { describe, expect, it } from 'vitest';
import { Agent, Runner, RunContext, UserError, type RunStreamEvent } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { codexTool, type CodexToolStreamEvent } from '../src/index.js';
import { consumeTurn } from '../src/internal/consumeEvents.js';
import { fakeCodex } from './helpers.js';

const task = (text: string, extra: Record<string, unknown> = {}) => ({ inputs: [{ type: 'text', text }], ...extra });

function agentCalling(tool: ReturnType<typeof codexTool>, args: Record<string, unknown>, answer = 'All done.') {
  return new Agent({
    name: 'Engineer',
    tools: [tool],
    model: new ScriptedModel([[functionCall(tool.name, args, { callId: 'call_codex' })], [assistantMessage(answer)]]),
  });
}

describe('codexTool() in a run', () => {
  it("answers the model with Codex's final message, thread id and usage, and adds the usage to the run's", async () => {
    const { codex, invocations } = fakeCodex();
    const tool = codexTool({ codex });
    const result = await new Runner().run(agentCalling(tool, task('  list the files  ')), 'What is in the repo?');

    const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
    expect(output?.output).toEqual({
      threadId: 'thread_fake_1',
      response: 'Codex did: list the files',
      usage: { input_tokens: 120, cached_input_tokens: 20, output_tokens: 30, cache_write_input_tokens: 0 },
    });
    expect(result.finalOutput).toBe('All done.');
    // Two model calls of the scripted model (no token counts) and the Codex turn.
    expect(result.state.usage.inputTokens).toBe(120);
    expect(result.state.usage.outputTokens).toBe(30);
    expect(result.state.usage.requests).toBe(3);
    expect(invocations()).toMatchObject([{ argv: ['exec', '--experimental-json'], input: 'list the files' }]);
  });

  it('sends every Codex event to onStream, with the thread id and the tool call, and keeps them out of the history', async () => {
    const { codex } = fakeCodex();
    const seen: CodexToolStreamEvent[] = [];
    const tool = codexTool({ codex, onStream: (event) => void seen.push(event) });
    const streamed = await new Runner().run(agentCalling(tool, task('look around')), 'Go', { stream: true });
    const events: RunStreamEvent[] = [];
    for await (const event of streamed) events.push(event);
    await streamed.completed;

    expect(seen.map((entry) => entry.event.type)).toEqual([
      'thread.started',
      'turn.started',
      'item.started',
      'item.completed',
      'item.started',
      'item.completed',
      'item.updated',
      'item.completed',
      'turn.completed',
    ]);
    expect(seen.every((entry) => entry.threadId === 'thread_fake_1')).toBe(true);
    expect(seen[0]?.toolCall).toMatchObject({ type: 'function_call', name: 'codex', callId: 'call_codex' });
    expect(streamed.history.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_result', 'message']);
    expect(JSON.stringify(events)).not.toContain('Looking at the workspace.');
  });

  it('a watcher that throws does not fail the task', async () => {
    const { codex } = fakeCodex();
    const tool = codexTool({
      codex,
      onStream: () => {
        throw new Error('watcher broke');
      },
    });
    const output = await tool.invoke(new RunContext(), JSON.stringify(task('still works')));
    expect(output).toMatchObject({ response: 'Codex did: still works' });
  });

  it('continues the thread a call names (resume), and images go to Codex as files', async () => {
    const { codex, invocations } = fakeCodex();
    const tool = codexTool({ codex });
    const output = await tool.invoke(
      new RunContext(),
      JSON.stringify({ inputs: [{ type: 'text', text: 'and now?' }, { type: 'local_image', path: ' /tmp/shot.png ' }], threadId: 'thread_earlier' }),
    );
    expect(output).toMatchObject({ threadId: 'thread_earlier', response: 'Codex did: and now? (images: /tmp/shot.png)' });
    expect(invocations()[0]?.argv).toEqual(['exec', '--experimental-json', 'resume', 'thread_earlier', '--image', '/tmp/shot.png']);
  });

  it('passes the thread options on: sandbox, working directory, git check, model', async () => {
    const { codex, invocations } = fakeCodex();
    const tool = codexTool({ codex, sandboxMode: 'workspace-write', workingDirectory: '/repo', skipGitRepoCheck: true, defaultThreadOptions: { model: 'gpt-5.4' } });
    await tool.invoke(new RunContext(), JSON.stringify(task('build it')));
    expect(invocations()[0]?.argv).toEqual(['exec', '--experimental-json', '--model', 'gpt-5.4', '--sandbox', 'workspace-write', '--cd', '/repo', '--skip-git-repo-check']);
  });

  it('with persistSession, every call continues the first call’s thread', async () => {
    const { codex, invocations } = fakeCodex({ FAKE_CODEX_THREAD_ID: 'thread_kept' });
    const tool = codexTool({ codex, persistSession: true });
    await tool.invoke(new RunContext(), JSON.stringify(task('one')));
    await tool.invoke(new RunContext(), JSON.stringify(task('two')));
    expect(invocations().map((call) => call.argv.slice(2))).toEqual([[], ['resume', 'thread_kept']]);
    await expect(tool.invoke(new RunContext(), JSON.stringify(task('three', { threadId: 'thread_other' })))).resolves.toBe(
      'An error occurred while running the tool. Please try again.',
    );
  });

  it('a failed turn, a stream error and a crashed CLI each answer the model with an error, and the run goes on', async () => {
    for (const text of ['FAIL_TURN', 'STREAM_ERROR', 'CRASH']) {
      const { codex } = fakeCodex();
      const result = await new Runner().run(agentCalling(codexTool({ codex }), task(text), 'Codex failed, sorry.'), 'Go');
      const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
      expect(output?.output).toBe('An error occurred while running the tool. Please try again.');
      expect((output as { error?: unknown }).error).toBeInstanceOf(Error);
      expect(result.finalOutput).toBe('Codex failed, sorry.');
    }
  });

  it("names Codex's message in the error of a failed turn or a stream error", async () => {
    const { codex } = fakeCodex();
    const failed = await codex.startThread().runStreamed('FAIL_TURN');
    await expect(consumeTurn(failed.events, {})).rejects.toThrow(new UserError('Codex turn failed: the model is overloaded'));
    const broken = await codex.startThread().runStreamed('STREAM_ERROR');
    await expect(consumeTurn(broken.events, {})).rejects.toThrow(new UserError('Codex stream error: connection reset'));
  });

  it('without an agent message the answer says the task completed', async () => {
    const { codex } = fakeCodex();
    const output = await codexTool({ codex }).invoke(new RunContext(), JSON.stringify(task('SILENT')));
    expect(output).toMatchObject({ response: 'Codex task completed with inputs.' });
  });
});
