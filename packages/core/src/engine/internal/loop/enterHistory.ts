import * as Effect from 'effect/Effect';
import { itemEvent, type ModelRunItem } from '../../../state/internal/items.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { flatMapNow } from '../flatMapNow.js';
import type { LoopEnv } from './loopEnv.js';

/** Items enter history one by one, each announced as it enters (at once when nothing streams). */
export function enterHistory(items: readonly ModelRunItem[], record: RunRecord, env: LoopEnv, from = 0): Effect.Effect<void> {
  if (from === items.length) return Effect.void;
  const item = items[from]!;
  record.generatedItems.push(item);
  return flatMapNow(env.emit(itemEvent(item)), () => enterHistory(items, record, env, from + 1));
}
