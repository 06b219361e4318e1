import { formatJsonPath } from '@baton/types/internal';
import { RunStateError, type AgentInputItem, type RunItem, type SerializedRunState } from '@baton/types';
import type { UnsavedForSession } from '../sessionProgress.js';

type WrittenUnsaved = NonNullable<SerializedRunState['sessionUnsaved']>;

/** A state's `sessionUnsaved` read back: its indexes become the generated items they name (each must name one). */
export function readSessionUnsaved(written: WrittenUnsaved, generatedItems: readonly RunItem[], at: readonly (string | number)[]): UnsavedForSession {
  const items = new Set<RunItem>();
  written.items.forEach((index, i) => {
    const item = generatedItems[index];
    if (item === undefined) {
      const path = [...at, 'sessionUnsaved', 'items', i];
      throw new RunStateError('invalid_state', `Invalid run state at ${formatJsonPath(path)}: item ${index} is not one of the ${generatedItems.length} generated items.`, { path });
    }
    items.add(item);
  });
  return written.input === undefined ? { items } : { input: written.input as AgentInputItem[], items };
}

/** What a session lacks, as a state writes it: the generated items by index. */
export function writeSessionUnsaved(unsaved: UnsavedForSession, generatedItems: readonly RunItem[]): WrittenUnsaved {
  const items: number[] = [];
  generatedItems.forEach((item, index) => {
    if (unsaved.items.has(item)) items.push(index);
  });
  return (unsaved.input === undefined ? { items } : { input: unsaved.input, items }) as WrittenUnsaved;
}
