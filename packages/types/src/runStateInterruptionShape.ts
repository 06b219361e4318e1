type Json = Record<string, unknown>;

/**
 * A paused run's step may be written in the shape `RunState._currentStep` shows it
 * (`{ type: 'next_step_interruption', data: { interruptions } }`), and an interruption in the
 * older shape of an approval (`{ rawItem, toolName }`, no `type` and no `agent`: the current
 * agent's). Both are read as the schema's `{ type, interruptions: [{ type: 'tool_approval_item', ... }] }`.
 * Anything else is returned as it is (the schema then says what is wrong); the input is never modified.
 */
export function withInterruptionStepShape(state: Json): Json {
  const step = state.currentStep;
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return state;
  const { type, interruptions, data } = step as Json;
  if (type !== 'next_step_interruption') return state;
  const listed = interruptions ?? (typeof data === 'object' && data !== null ? (data as Json).interruptions : undefined);
  if (!Array.isArray(listed)) return state;
  const items = listed.map(approvalItemShape);
  if (interruptions === listed && items.every((item, i) => item === listed[i])) return state;
  return { ...state, currentStep: { type, interruptions: items } };
}

/** An approval written without its `type` (a raw call with its tool name) is a tool approval item. */
export function approvalItemShape(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
  const json = item as Json;
  if (json.type !== undefined || typeof json.rawItem !== 'object' || json.rawItem === null) return item;
  return { type: 'tool_approval_item', ...json };
}
