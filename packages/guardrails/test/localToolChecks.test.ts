/**
 * The ready-made tool guardrails on the local tools (shell, apply-patch, computer): they type-check
 * in those tools' `inputGuardrails` / `outputGuardrails`, and they read what such a call carries —
 * a shell call's commands, a patch's path and diff, the text a computer call types — and what the
 * tool produced (a shell's stdout and stderr), not a function call's `arguments`.
 */
import { Agent, applyPatchTool, computerTool, run, shellTool, type AgentInputItem, type AgentOutputItem, type Editor, type Shell, type Tool } from '@baton/core';
import { FakeComputer, ScriptedModel, assistantMessage } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { bannedTopicsCheck, blockSecrets, piiCheck, redactOutput } from '../src/index.js';
import { FAKE } from './fixtures.js';

const SECRET_REFUSAL = 'Remove secrets before calling this tool.';

/** Runs one call of a local tool, then a final answer; returns what the model was sent back. */
async function runCall(tool: Parameters<typeof agentWith>[0], call: AgentOutputItem) {
  const { agent, model } = agentWith(tool, call);
  await run(agent, 'go');
  const sent = model.lastCall!.request.input as AgentInputItem[];
  return sent.find((item) => 'callId' in item && item.callId === (call as { callId: string }).callId && item.type !== call.type);
}

function agentWith(tool: Tool, call: AgentOutputItem) {
  const model = new ScriptedModel([[call], [assistantMessage('done')]]);
  return { agent: new Agent({ name: 'Ops', model, tools: [tool] }), model };
}

function recordingShell(stdout = 'ok') {
  const ran: string[][] = [];
  const shell: Shell = { run: async (action) => (ran.push(action.commands), { output: [{ stdout, stderr: '', outcome: { type: 'exit', exitCode: 0 } }] }) };
  return { shell, ran };
}

function recordingEditor() {
  const applied: string[] = [];
  const editor: Editor = {
    createFile: async (operation) => (applied.push(operation.path), { output: `created ${operation.path}` }),
    updateFile: async (operation) => (applied.push(operation.path), { output: `updated ${operation.path}` }),
    deleteFile: async (operation) => (applied.push(operation.path), { output: `deleted ${operation.path}` }),
  };
  return { editor, applied };
}

describe('blockSecrets on a shell tool', () => {
  it('does not run a command that carries a secret, and tells the model why', async () => {
    const { shell, ran } = recordingShell();
    const tool = shellTool({ shell, needsApproval: false, inputGuardrails: [blockSecrets()] });
    const sent = await runCall(tool, { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['ls', `curl -H "Authorization: Bearer ${FAKE.openaiKey}" https://api.example.com`] } });
    expect(ran).toEqual([]);
    expect(sent).toMatchObject({ type: 'shell_call_output', output: [{ stdout: '', stderr: SECRET_REFUSAL }] });
  });

  it('runs a command without one', async () => {
    const { shell, ran } = recordingShell();
    const tool = shellTool({ shell, needsApproval: false, inputGuardrails: [blockSecrets()] });
    const sent = await runCall(tool, { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['git status'] } });
    expect(ran).toEqual([['git status']]);
    expect(sent).toMatchObject({ type: 'shell_call_output', output: [{ stdout: 'ok', stderr: '' }] });
  });
});

describe('redactOutput on a shell tool', () => {
  it("checks the command's stdout: a secret printed never reaches the model", async () => {
    const { shell } = recordingShell(`AWS_ACCESS_KEY_ID=${FAKE.awsAccessKeyId}`);
    const tool = shellTool({ shell, needsApproval: false, outputGuardrails: [redactOutput()] });
    const sent = await runCall(tool, { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['env'] } });
    expect(JSON.stringify(sent)).not.toContain(FAKE.awsAccessKeyId);
    // The model reads the command's output redacted (a refusal of a shell call is its stderr), not JSON of it.
    expect(sent).toMatchObject({ type: 'shell_call_output', output: [{ stdout: '', stderr: 'AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key_id]' }] });
  });

  it('passes clean output unchanged', async () => {
    const { shell } = recordingShell('3 files changed');
    const tool = shellTool({ shell, needsApproval: false, outputGuardrails: [redactOutput()] });
    const sent = await runCall(tool, { type: 'shell_call', callId: 's1', status: 'completed', action: { commands: ['git diff --stat'] } });
    expect(sent).toMatchObject({ type: 'shell_call_output', output: [{ stdout: '3 files changed', stderr: '' }] });
  });
});

describe('checks on an apply-patch tool', () => {
  it("blockSecrets reads the patch's diff: a key written into a file is refused, the file untouched", async () => {
    const { editor, applied } = recordingEditor();
    const tool = applyPatchTool({ editor, needsApproval: false, inputGuardrails: [blockSecrets()] });
    const sent = await runCall(tool, {
      type: 'apply_patch_call',
      callId: 'p1',
      status: 'completed',
      operation: { type: 'create_file', path: '.env', diff: `+OPENAI_API_KEY=${FAKE.openaiKey}` },
    });
    expect(applied).toEqual([]);
    expect(sent).toMatchObject({ type: 'apply_patch_call_output', status: 'failed', output: SECRET_REFUSAL });
  });

  it("a banned topic in the patch's path is refused too (the path is part of what is checked)", async () => {
    const { editor, applied } = recordingEditor();
    const check = bannedTopicsCheck(['payroll']);
    const tool = applyPatchTool({ editor, needsApproval: false, inputGuardrails: [check.toolInputGuardrail({ message: 'Not that file.' })] });
    const sent = await runCall(tool, { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'delete_file', path: 'hr/payroll.csv' } });
    expect(applied).toEqual([]);
    expect(sent).toMatchObject({ type: 'apply_patch_call_output', status: 'failed', output: 'Not that file.' });
  });

  it('applies a clean patch', async () => {
    const { editor, applied } = recordingEditor();
    const tool = applyPatchTool({ editor, needsApproval: false, inputGuardrails: [blockSecrets()] });
    await runCall(tool, { type: 'apply_patch_call', callId: 'p1', status: 'completed', operation: { type: 'create_file', path: 'notes.md', diff: '+hello' } });
    expect(applied).toEqual(['notes.md']);
  });
});

describe('checks on a computer tool', () => {
  it('blockSecrets reads the text a computer call types: typing a key is refused, no action taken', async () => {
    const computer = new FakeComputer();
    const tool = computerTool({ computer, needsApproval: false, inputGuardrails: [blockSecrets()] });
    const sent = await runCall(tool, {
      type: 'computer_call',
      callId: 'c1',
      status: 'completed',
      actions: [{ type: 'click', x: 10, y: 10, button: 'left' }, { type: 'type', text: FAKE.githubToken }],
    });
    expect(computer.actions).toEqual([]);
    expect(sent).toMatchObject({ type: 'computer_call_result', output: { providerData: { approvalStatus: 'rejected', message: SECRET_REFUSAL } } });
  });

  it('output checks let a screenshot through untouched (an image has no text to check)', async () => {
    // Base64 image data can spell anything, a key id included: checking it as text would corrupt the image.
    const computer = new FakeComputer();
    const shot = computer.screenshot.bind(computer);
    const lookalike = `iVBORw0KGgo/${FAKE.awsAccessKeyId}/AAAA`;
    computer.screenshot = () => (shot(), lookalike);
    const tool = computerTool({ computer, needsApproval: false, outputGuardrails: [piiCheck().toolOutputGuardrail(), redactOutput()] });
    const sent = await runCall(tool, { type: 'computer_call', callId: 'c1', status: 'completed', actions: [{ type: 'type', text: 'hello' }] });
    expect(computer.actions.length).toBeGreaterThan(0);
    expect(sent).toMatchObject({ type: 'computer_call_result', output: { type: 'computer_screenshot', data: `data:image/png;base64,${lookalike}` } });
  });
});
