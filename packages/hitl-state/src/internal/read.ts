import { readRunStateJson } from '@baton/types/internal';
import { type SerializedRunState } from '@baton/types';

/** Reads (and migrates) a serialized state without an agent graph; throws `RunStateError`. */
export function readState(text: string): SerializedRunState {
  return readRunStateJson(text).state;
}

/** The key a nested agent-tool run is stored under: `<toolName>:<callId>`. */
export function splitNestedRunKey(key: string): { toolName: string; callId: string } {
  const colon = key.indexOf(':');
  return colon < 0 ? { toolName: key, callId: '' } : { toolName: key.slice(0, colon), callId: key.slice(colon + 1) };
}
