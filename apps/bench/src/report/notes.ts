import { SDKS, type ChildReport, type IdleFigures, type SdkName, type StateFigures } from '../protocol.js';
import { spreadOf } from './stats.js';
import { formatValue } from './table.js';

const NAMES: Record<SdkName, string> = { baton: 'Baton', reference: 'reference' };

function figuresOf<K extends 'state' | 'idle'>(reports: readonly ChildReport[], sdk: SdkName, kind: K) {
  const found: Array<K extends 'state' ? StateFigures : IdleFigures> = [];
  for (const report of reports) {
    if (report.sdk !== sdk) continue;
    for (const { figures } of report.results) if (figures.kind === kind) found.push(figures as K extends 'state' ? StateFigures : IdleFigures);
  }
  return found;
}

/**
 * The paused-run state at every size the table's growth rows come from: per SDK, the median over
 * rounds of the size, `toString` and `fromString` at each number of tool turns.
 */
export function stateNote(reports: readonly ChildReport[]): string {
  const lines: string[] = [];
  let turns: number[] = [];
  for (const sdk of SDKS) {
    const all = figuresOf(reports, sdk, 'state');
    if (all.length === 0) continue;
    turns = all[0]!.turns;
    const column = (pick: (f: StateFigures) => number[], unit: 'bytes' | 'micros') =>
      turns.map((_, i) => formatValue(spreadOf(all.map((f) => pick(f)[i]!)).median, unit)).join(' / ');
    lines.push(
      `  ${NAMES[sdk]}: size ${column((f) => f.bytes, 'bytes')}; toString ${column((f) => f.toStringMicros, 'micros')}; ` +
        `fromString ${column((f) => f.fromStringMicros, 'micros')}`,
    );
  }
  return [`Paused run state at ${turns.join(' / ')} tool turns (medians over rounds):`, ...lines].join('\n');
}

/** What the idle-consumer rows cannot say: how long nobody read, and what each SDK had produced by then. */
export function idleNote(reports: readonly ChildReport[]): string {
  const parts = SDKS.map((sdk) => {
    const all = figuresOf(reports, sdk, 'idle');
    const produced = all.map((f) => f.producedWhileIdle);
    const deltas = all[0]?.deltas ?? 0;
    const idle = spreadOf(all.map((f) => f.idleMs)).median;
    return (
      `${NAMES[sdk]} produced ${Math.min(...produced).toLocaleString('en-US')}–${Math.max(...produced).toLocaleString('en-US')} ` +
      `of ${deltas.toLocaleString('en-US')} deltas in ${Math.round(idle)} ms unread`
    );
  });
  return `Idle consumer, all rounds: ${parts.join('; ')}; both then delivered every delta once read.`;
}
