import type { Unit } from './metrics.js';
import type { SummaryRow } from './summary.js';

/** `compact` drops trailing zeros (for targets: `110 ms`, not `110.00 ms`). */
export function formatValue(value: number, unit: Unit, { compact = false } = {}): string {
  switch (unit) {
    case 'micros':
      if (value >= 1000) return `${compact ? String(Number((value / 1000).toFixed(2))) : (value / 1000).toFixed(2)} ms`;
      return `${compact ? String(Number(value.toFixed(1))) : value.toFixed(value >= 100 ? 0 : 1)} µs`;
    case 'perSecond':
      return `${Math.round(value).toLocaleString('en-US')} /s`;
    case 'bytes':
      if (value >= 1e6) return `${(value / 1e6).toFixed(1)} MB`;
      return `${(value / 1000).toFixed(1)} kB`;
    case 'count':
      return Math.round(value).toLocaleString('en-US');
    case 'factor':
      return `${compact ? String(Number(value.toFixed(2))) : value.toFixed(2)}x`;
    case 'share':
      return compact && value === 1 ? 'all runs' : `${Math.round(value * 100)}% of runs`;
  }
}

/** Two decimals, or two significant digits for ratios under 0.01 (so they do not all read 0.00x). */
export function formatRatio(ratio: number): string {
  return `${ratio !== 0 && Math.abs(ratio) < 0.01 ? ratio.toPrecision(2) : ratio.toFixed(2)}x`;
}

/** Half the min–max range, relative to the median: how much the rounds disagreed. */
function noise(row: SummaryRow['baton']): string {
  if (row.median === 0) return row.max === row.min ? '±0%' : '-';
  return `±${Math.round(((row.max - row.min) / 2 / row.median) * 100)}%`;
}

/** The results as an aligned plain-text table. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const header = ['Scenario', 'Baton', 'Reference', 'Baton/Ref', 'Better', 'Target', 'Status', 'Spread B / R'];
  const body = rows.map((row) => [
    row.label,
    formatValue(row.baton.median, row.unit),
    formatValue(row.reference.median, row.unit),
    row.ratio === undefined ? '-' : formatRatio(row.ratio),
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
