/**
 * The consumer programs the packaging test writes into the temporary project: one agent with one
 * tool on the ScriptedModel, run plainly and streamed, written once as ESM (`import`) and once as
 * CommonJS (`require`). Each prints human lines and one `REPORT <json>` line for the test to read.
 */

export type ConsumerFormat = 'esm' | 'cjs';

/** What a consumer script prints on its `REPORT` line. */
export interface ConsumerReport {
  format: ConsumerFormat;
  finalOutput: unknown;
  itemTypes: string[];
  toolCalls: Array<[number, number]>;
  modelCalls: number;
  secondRequestHasToolOutput: boolean;
  streamed: { finalOutput: unknown; text: string; itemEvents: string[] };
  /** `require.resolve` of each package, real paths. */
  required: Record<string, string>;
  /** The file this module format actually loads for each package, real paths. */
  loaded: Record<string, string>;
  /** Packages that must not be resolvable from the project (they live only in the monorepo). */
  leaked: string[];
}

export const PACKAGES_TO_RESOLVE = ['@baton/core', '@baton/testing', '@baton/types', 'zod', 'effect'] as const;
export const MUST_NOT_RESOLVE = ['@baton/agents', 'vitest', 'tsup', 'turbo'] as const;

const esmHeader = `
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Agent, run, tool } from '@baton/core';
import { ScriptedModel, assistantMessage, functionCall, modelResponder } from '@baton/testing';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const format = 'esm';
const locate = (name) => realpathSync(fileURLToPath(import.meta.resolve(name)));
`;

const cjsHeader = `
'use strict';
const { realpathSync } = require('node:fs');
const { Agent, run, tool } = require('@baton/core');
const { ScriptedModel, assistantMessage, functionCall, modelResponder } = require('@baton/testing');
const { z } = require('zod');

const format = 'cjs';
const locate = (name) => realpathSync(require.resolve(name));
`;

const body = `
const PACKAGES = ${JSON.stringify(PACKAGES_TO_RESOLVE)};
const MUST_NOT_RESOLVE = ${JSON.stringify(MUST_NOT_RESOLVE)};

function canResolve(name) {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

function script() {
  return [
    [functionCall('add', { a: 2, b: 3 })],
    modelResponder((call) => {
      const input = Array.isArray(call.request.input) ? call.request.input : [];
      const result = input.find((item) => item.type === 'function_call_result');
      const output = result === undefined ? 'nothing' : typeof result.output === 'string' ? result.output : result.output.text;
      return [assistantMessage('The sum is ' + output + '.')];
    }),
  ];
}

async function main() {
  const toolCalls = [];
  const add = tool({
    name: 'add',
    description: 'Add two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => {
      toolCalls.push([a, b]);
      console.log('tool add called with ' + a + ' and ' + b);
      return a + b;
    },
  });
  const makeAgent = (model) =>
    new Agent({ name: 'Calculator', instructions: 'Add numbers with the add tool.', model, tools: [add] });

  const model = new ScriptedModel(script());
  const result = await run(makeAgent(model), 'What is 2 + 3?');
  model.assertComplete();
  console.log('final output: ' + result.finalOutput);
  const secondInput = model.calls[1] && Array.isArray(model.calls[1].request.input) ? model.calls[1].request.input : [];

  const streamModel = new ScriptedModel(script());
  const streamed = await run(makeAgent(streamModel), 'What is 2 + 3?', { stream: true });
  let text = '';
  const itemEvents = [];
  for await (const event of streamed) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') text += event.data.delta;
    if (event.type === 'run_item_stream_event') itemEvents.push(event.name);
  }
  await streamed.completed;
  streamModel.assertComplete();
  console.log('streamed output: ' + streamed.finalOutput);

  const report = {
    format,
    finalOutput: result.finalOutput,
    itemTypes: result.newItems.map((item) => item.type),
    toolCalls,
    modelCalls: model.calls.length,
    secondRequestHasToolOutput: secondInput.some((item) => item.type === 'function_call_result'),
    streamed: { finalOutput: streamed.finalOutput, text, itemEvents },
    required: Object.fromEntries(PACKAGES.map((name) => [name, realpathSync(require.resolve(name))])),
    loaded: Object.fromEntries(PACKAGES.map((name) => [name, locate(name)])),
    leaked: MUST_NOT_RESOLVE.filter(canResolve),
  };
  console.log('REPORT ' + JSON.stringify(report));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

export function consumerScript(format: ConsumerFormat): string {
  return (format === 'esm' ? esmHeader : cjsHeader) + body;
}
