/** The seeds' `block_secrets` / `redact_output` tool guardrails on the `classify_text` tool, as written there. */
import { Agent, run, tool } from '@baton/core';
import { ToolGuardrailFunctionOutputFactory, defineToolInputGuardrail, defineToolOutputGuardrail } from '@baton/guardrails';
import { ScriptedModel, assistantMessage, functionCall } from '@baton/testing';
import { z } from 'zod';
import { consoleLog, type Log } from './log.js';

const blockSecrets = defineToolInputGuardrail({
  name: 'block_secrets',
  run: async ({ toolCall }) => {
    const args = JSON.parse(toolCall.arguments) as { text?: string };
    if (args.text?.includes('sk-')) {
      return ToolGuardrailFunctionOutputFactory.rejectContent('Remove secrets before calling this tool.');
    }
    return ToolGuardrailFunctionOutputFactory.allow();
  },
});

const redactOutput = defineToolOutputGuardrail({
  name: 'redact_output',
  run: async ({ output }) => {
    const text = String(output ?? '');
    if (text.includes('sk-')) {
      return ToolGuardrailFunctionOutputFactory.rejectContent('Output contained sensitive data.');
    }
    return ToolGuardrailFunctionOutputFactory.allow();
  },
});

export async function toolGuardrailsExample(log: Log = consoleLog) {
  const invoked: string[] = [];
  const classifyTool = tool({
    name: 'classify_text',
    description: 'Classify text for internal routing.',
    parameters: z.object({ text: z.string() }),
    inputGuardrails: [blockSecrets],
    outputGuardrails: [redactOutput],
    // As in the seed, plus one leaky case so that redact_output has something to catch.
    execute: ({ text }) => (invoked.push(text), text === 'show config' ? 'config: OPENAI_API_KEY=sk-live-456' : `length:${text.length}`),
  });
  const model = new ScriptedModel([
    [
      functionCall('classify_text', { text: 'my key is sk-live-123' }, { callId: 'secret_in' }),
      functionCall('classify_text', { text: 'show config' }, { callId: 'secret_out' }),
      functionCall('classify_text', { text: 'refund request' }, { callId: 'clean' }),
    ],
    [assistantMessage('Classified the clean text.')],
  ]);
  const agent = new Agent({ name: 'Classifier', instructions: 'Classify incoming text.', model, tools: [classifyTool] });

  const result = await run(agent, 'Classify these texts.');
  const outputs: Record<string, unknown> = {};
  for (const item of result.newItems) {
    if (item.type === 'tool_call_output_item') outputs[item.rawItem.callId] = item.output;
  }
  log(`block_secrets: ${outputs.secret_in}`);
  log(`redact_output: ${outputs.secret_out}`);
  log(`clean call:    ${outputs.clean}`);
  log(`tool ran for: ${JSON.stringify(invoked)}`);
  return { outputs, invoked, finalOutput: result.finalOutput };
}
