import * as Effect from 'effect/Effect';
import {
  RunToolCallOutputItem,
  type ApplyPatchCallItem,
  type ApplyPatchCallResultItem,
  type ApplyPatchResult,
  type ApplyPatchTool,
  type EditorInvocationContext,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import { annotate, withSpanContext } from './span.js';
import type { ToolRunOutcome } from './toolRunOutcome.js';
import { extractedCustomData } from './toolOutputCustomData.js';
import { copyForExtractor } from '../../../definitions/internal/extractorCopy.js';
import { toolEnded, toolStarted } from './lifecycleHooks.js';
import { decideLocalApproval } from './localToolApproval.js';
import { commitLocalOutput, errorText, localToolSpan, noteLocalToolError } from './localToolOutput.js';
import type { LoopEnv } from './loopEnv.js';
import { jsonCodec } from './stepCodecs.js';
import { step } from './steps.js';
import { runToolInputGuardrails, runToolOutputGuardrails } from './toolGuardrails.js';

type PatchOutcome = { readonly status: 'completed' | 'failed'; readonly output: string };

/**
 * Runs one apply-patch call: approval (the item shows the operation and its diff), then the
 * editor's `createFile` / `updateFile` / `deleteFile`, then the `apply_patch_call_output` item.
 * An operation the editor refuses (a diff that does not apply, a path outside its folder) is a
 * `failed` output carrying the editor's message: an error to the model, not to the run. The
 * editor call is the call's `tool:{callId}` step. The tool's input guardrails check the call (its
 * operation and diff) before the editor runs: a `rejectContent` is a `failed` output with its
 * message; its output guardrails check the editor's message, a `rejectContent` replacing it.
 */
export function executeApplyPatchCall(
  call: ApplyPatchCallItem,
  tool: ApplyPatchTool,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    const approval = yield* decideLocalApproval(call, tool, () => tool.needsApproval(record.context, call.operation, call.callId), agent, record, env);
    if (approval.status === 'pending') return { type: 'approval', item: approval.item } as const;
    if (approval.status === 'rejected') {
      return yield* commitLocalOutput(new RunToolCallOutputItem(outputItem(call, { status: 'failed', output: approval.message }), agent, approval.message), env);
    }
    return yield* applyPatch(call, tool, agent, record, env).pipe(localToolSpan(tool, call, call.operation, env));
  });
}

function applyPatch(call: ApplyPatchCallItem, tool: ApplyPatchTool, agent: Agent<any, any>, record: RunRecord, env: LoopEnv): Effect.Effect<ToolRunOutcome, RunFailure> {
  return Effect.gen(function* () {
    yield* toolStarted(agent, tool, call, record, env);
    const steps = { runner: env.stepRunner, traced: env.traced, scope: `tool:${call.callId}` };
    const rejection = yield* runToolInputGuardrails(tool, call, agent, record, steps);
    if (rejection !== undefined) return yield* commitLocalOutput(new RunToolCallOutputItem(outputItem(call, { status: 'failed', output: rejection }), agent, rejection), env);
    const context: EditorInvocationContext = { runContext: record.context };
    const invoked: Effect.Effect<PatchOutcome> = withSpanContext(env, (enter) =>
      Effect.tryPromise({ try: () => enter(() => applyOperation(tool, call, context)), catch: (error) => error }),
    ).pipe(
      Effect.map((result): PatchOutcome => ({
        status: result && typeof result.status === 'string' && result.status === 'failed' ? 'failed' : 'completed',
        output: result && typeof result.output === 'string' ? result.output : '',
      })),
      Effect.catch((error: unknown) => noteLocalToolError(tool, call, error, env).pipe(Effect.as<PatchOutcome>({ status: 'failed', output: errorText(error) }))),
    );
    const outcome = yield* step(env.stepRunner, 'tool', () => `tool:${call.callId}`, jsonCodec as never, invoked) as Effect.Effect<PatchOutcome>;
    // Before the end hook, as the reference: an extractor that fails ends the run without it.
    const customData = yield* extractedCustomData(tool.customDataExtractor, () => ({
      runContext: record.context,
      tool,
      operation: copyForExtractor(call.operation),
      output: outcome.output,
      status: outcome.status,
      rawItem: copyForExtractor(outputItem(call, outcome)),
    }), env);
    yield* toolEnded(agent, tool, outcome.output, call, record, env);
    // A replaced message keeps the status: the editor did (or did not) change the files.
    const replaced = yield* runToolOutputGuardrails(tool, call, outcome.output, agent, record, steps);
    const seen: PatchOutcome = replaced === undefined ? outcome : { status: outcome.status, output: replaced };
    yield* annotate(env, () => ({ 'baton.tool.output': seen.output, 'baton.tool.status': seen.status }));
    return yield* commitLocalOutput(new RunToolCallOutputItem(outputItem(call, seen), agent, seen.output, customData), env);
  });
}

async function applyOperation(tool: ApplyPatchTool, call: ApplyPatchCallItem, context: EditorInvocationContext): Promise<ApplyPatchResult | void> {
  const operation = call.operation;
  switch (operation.type) {
    case 'create_file':
      return tool.editor.createFile(operation, context);
    case 'update_file':
      return tool.editor.updateFile(operation, context);
    case 'delete_file':
      return tool.editor.deleteFile(operation, context);
    default:
      throw new Error(`Unsupported apply_patch operation "${String((operation as { type?: unknown }).type)}".`);
  }
}

function outputItem(call: ApplyPatchCallItem, outcome: PatchOutcome): ApplyPatchCallResultItem {
  const raw: ApplyPatchCallResultItem = { type: 'apply_patch_call_output', callId: call.callId, status: outcome.status, ...(call.caller ? { caller: call.caller } : {}) };
  if (outcome.output) raw.output = outcome.output;
  return raw;
}
