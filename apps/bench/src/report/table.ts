import type { Unit } from './metrics.js';
import type { SummaryRow } from './summary.js';

export function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case 'micros':
      return value >= 1000 ? `${(value / 1000).toFixed(2)} ms` : `${value.toFixed(value >= 100 ? 0 : 1)} µs`;
    case 'perSecond':
      return `${Math.round(value).toLocaleString('en-US')} /s`;
    case 'bytes':
      return `${(value / 1000).toFixed(1)} kB`;
  }
}

/** Half the min–max range, relative to the median: how much the rounds disagreed. */
function noise(row: SummaryRow['baton']): string {
  return `±${Math.round(((row.max - row.min) / 2 / row.median) * 100)}%`;
}

/** The results as an aligned plain-text table. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const header = ['Scenario', 'Baton', 'Reference', 'Baton/Ref', 'Better', 'Target', 'Status', 'Spread B / R'];
  const body = rows.map((row) => [
    row.label,
    formatValue(row.baton.median, row.unit),
    formatValue(row.reference.median, row.unit),
    `${row.ratio.toFixed(2)}x`,
    row.better === 'lower' ? 'lower' : 'higher',
    row.target ?? '-',
    row.met === undefined ? 'info' : row.met ? 'met' : 'MISSED',
    `${noise(row.baton)} / ${noise(row.reference)}`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const numeric = new Set([1, 2, 3]);
  const line = (cells: string[]) =>
    cells.map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
