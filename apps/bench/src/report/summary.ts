import type { ChildReport, SdkName } from '../protocol.js';
import { METRICS, type Metric } from './metrics.js';
import { spreadOf, type Spread } from './stats.js';
import { formatValue } from './table.js';

export interface SummaryRow {
  id: string;
  label: string;
  unit: Metric['unit'];
  better: Metric['better'];
  baton: Spread;
  reference: Spread;
  /** Median Baton figure divided by median reference figure; absent where that means nothing. */
  ratio?: number;
  /** e.g. `<= 0.5x`, `>= 2x` or `<= 110 ms`; absent for rows shown for information. */
  target?: string;
  met?: boolean;
}

/** Medians over rounds for every metric, the ratio of the medians, and whether the target is met. */
export function summarize(reports: readonly ChildReport[]): SummaryRow[] {
  return METRICS.map((metric) => {
    const baton = spreadOf(samplesOf(reports, 'baton', metric));
    const reference = spreadOf(samplesOf(reports, 'reference', metric));
    const row: SummaryRow = { id: metric.id, label: metric.label, unit: metric.unit, better: metric.better, baton, reference };
    const ratio = baton.median / reference.median;
    if (metric.ratio !== false) row.ratio = ratio;
    const op = metric.better === 'lower' ? '<=' : '>=';
    const within = (value: number, bound: number) => (metric.better === 'lower' ? value <= bound : value >= bound);
    const targets: string[] = [];
    const met: boolean[] = [];
    if (metric.targetRatio !== undefined) {
      targets.push(`${op} ${metric.targetRatio}x`);
      met.push(within(ratio, metric.targetRatio));
    }
    if (metric.targetValue !== undefined) {
      const bound = formatValue(metric.targetValue, metric.unit, { compact: true });
      targets.push(metric.unit === 'share' && metric.targetValue === 1 ? bound : `${op} ${bound}`);
      met.push(within(baton.median, metric.targetValue));
    }
    if (targets.length > 0) {
      row.target = targets.join(', ');
      row.met = met.every(Boolean);
    }
    return row;
  });
}

function samplesOf(reports: readonly ChildReport[], sdk: SdkName, metric: Metric): number[] {
  const samples: number[] = [];
  for (const report of reports) {
    if (report.sdk !== sdk) continue;
    for (const { scenario, figures } of report.results) {
      const value = scenario === metric.scenario ? metric.pick(figures) : undefined;
      if (value !== undefined) samples.push(value);
    }
  }
  if (samples.length === 0) throw new Error(`no ${sdk} samples for ${metric.id}`);
  return samples;
}
