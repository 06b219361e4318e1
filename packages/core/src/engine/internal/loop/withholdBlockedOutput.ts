import * as Effect from 'effect/Effect';
import { GuardrailExecutionError, OutputGuardrailTripwireTriggered, RunToolCallOutputItem, type FunctionCallResultItem, type RunItem } from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT, type OutputGuardrailBlockedMessage } from '../../../definitions/outputGuardrailBlockedMessage.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import type { RunFailure } from '../failures.js';
import { observedVerdict } from './guardrailVerdicts.js';
import { redactTerminalTrip, TERMINAL_TRIP_MESSAGE } from './redactTerminalTrip.js';
import { REDACTED_DETAILS_MESSAGE } from './finalOutputRedaction.js';
import { noteWithheldOutput } from './sessionSaveFailure.js';

/**
 * The output guardrails failed on a final output that came from the turn's tool outputs (through
 * `toolUseBehavior`, declarative or a function). When one of them completed with a trip, nothing
 * that turn's tools returned may outlive the verdict. When the turn was function calls and their
 * outputs only, each output is replaced by a data-free placeholder (the calls stay, so the history
 * stays well formed); when it held anything else (a message, reasoning, a hosted call), the turn's
 * items are dropped whole (and its response's output), and a state or session written afterwards
 * keeps the input that led to it. The guardrail results and the error carry the placeholder instead of the blocked output.
 *
 * Returns the error the run surfaces. With a trip: a tripwire error of the guardrail that tripped,
 * "Output guardrail triggered." (also for a tripwire error a guardrail threw itself), or, when a
 * sibling guardrail threw, its `GuardrailExecutionError` with the output cut from its messages.
 * Without one (a guardrail threw, none tripped) the output stays and `failure` surfaces as it is.
 */
export function withholdBlockedOutput(
  failure: RunFailure,
  resultsStart: number,
  turnStart: number,
  agent: Agent<any, any>,
  configured: OutputGuardrailBlockedMessage<any> | undefined,
  record: RunRecord,
): Effect.Effect<RunFailure> {
  const trip = record.outputGuardrailResults.slice(resultsStart).find((result) => observedVerdict(result) === true);
  if (trip === undefined || !(failure instanceof OutputGuardrailTripwireTriggered || failure instanceof GuardrailExecutionError)) return Effect.succeed(failure);
  return placeholderFor(configured, { guardrailName: trip.guardrail.name, agent, runContext: record.context }).pipe(
    Effect.map((placeholder) => {
      const blocked = trip.agentOutput;
      const turnItems = record.generatedItems.slice(turnStart);
      let redactedCalls = blockedCallIds(turnItems, blocked);
      if (turnItems.length > 0 && turnItems.every(isFunctionCallOrOutput)) {
        for (let index = turnStart; index < record.generatedItems.length; index++) {
          const item = record.generatedItems[index]!;
          if (item.type === 'tool_call_output_item') record.generatedItems[index] = withheld(item, placeholder);
        }
      } else {
        record.generatedItems.splice(turnStart);
        // The response that made the turn goes with it (a hosted tool's result, a message): the
        // state keeps its usage and id, not its output, as the reference's does.
        const response = record.modelResponses.at(-1);
        if (response !== undefined) record.modelResponses[record.modelResponses.length - 1] = { ...response, output: [] };
        // Nothing of the turn stays, so neither does what its tool guardrails said of any of its outputs.
        redactedCalls = functionOutputCallIds(turnItems);
      }
      const checked = record.outputGuardrailResults.filter((result) => result.agentOutput === blocked);
      for (const result of checked) result.agentOutput = placeholder;
      const redactedTrip = redactTerminalTrip(trip, checked, redactedCalls, record);
      record.currentStep = { type: 'next_step_final_output', output: placeholder, unchecked: true };
      const redact = agent.outputType === 'text' && typeof blocked === 'string' && blocked.length > 0 ? (message: string) => message.split(blocked).join(placeholder) : () => REDACTED_DETAILS_MESSAGE;
      const surfaced =
        failure instanceof OutputGuardrailTripwireTriggered
          ? new OutputGuardrailTripwireTriggered(TERMINAL_TRIP_MESSAGE, redactedTrip)
          : new GuardrailExecutionError(redact(failure.message), new Error(redact(failure.error instanceof Error ? failure.error.message : REDACTED_DETAILS_MESSAGE)));
      noteWithheldOutput(surfaced, redact);
      return surfaced;
    }),
  );
}

/**
 * The calls whose tool guardrail results describe the blocked output: the turn's function outputs
 * that are the final output, or, when the final output was made from them (a `toolUseBehavior`
 * function), every function output of the turn.
 */
function blockedCallIds(turnItems: readonly RunItem[], blocked: unknown): ReadonlySet<string> {
  const outputs = functionOutputsOf(turnItems);
  const terminal = outputs.filter((item) => item.output === blocked);
  return new Set((terminal.length > 0 ? terminal : outputs).map((item) => (item.rawItem as FunctionCallResultItem).callId));
}

/** Every call of the turn that has a function output. */
function functionOutputCallIds(turnItems: readonly RunItem[]): ReadonlySet<string> {
  return new Set(functionOutputsOf(turnItems).map((item) => (item.rawItem as FunctionCallResultItem).callId));
}

function functionOutputsOf(turnItems: readonly RunItem[]): RunToolCallOutputItem[] {
  return turnItems.filter((item): item is RunToolCallOutputItem => item.type === 'tool_call_output_item' && item.rawItem.type === 'function_call_result');
}

function isFunctionCallOrOutput(item: RunItem): boolean {
  if (item.type === 'tool_call_item') return item.rawItem.type === 'function_call';
  if (item.type === 'tool_call_output_item') return item.rawItem.type === 'function_call_result';
  return false;
}

function withheld(item: RunToolCallOutputItem, placeholder: string): RunToolCallOutputItem {
  const raw = item.rawItem as FunctionCallResultItem;
  // The placeholder answers the same call: its id and namespace (a `toolNamespace()` tool) stay.
  const rawItem: FunctionCallResultItem = { type: 'function_call_result', callId: raw.callId, name: raw.name, status: 'completed', output: placeholder };
  if (raw.namespace !== undefined) rawItem.namespace = raw.namespace;
  if (raw.id !== undefined) rawItem.id = raw.id;
  return new RunToolCallOutputItem(rawItem, item.agent, placeholder);
}

function placeholderFor(
  configured: OutputGuardrailBlockedMessage<any> | undefined,
  args: { guardrailName: string; agent: Agent<any, any>; runContext: RunRecord['context'] },
): Effect.Effect<string> {
  const defaultMessage = OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT;
  if (typeof configured === 'string') return Effect.succeed(configured);
  if (typeof configured !== 'function') return Effect.succeed(defaultMessage);
  return Effect.tryPromise(async () => configured({ defaultMessage, ...args })).pipe(
    Effect.map((text) => (typeof text === 'string' ? text : defaultMessage)),
    Effect.catch(() => Effect.succeed(defaultMessage)),
  );
}
