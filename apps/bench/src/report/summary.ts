import type { ChildReport, SdkName } from '../protocol.js';
import { METRICS, type Metric } from './metrics.js';
import { spreadOf, type Spread } from './stats.js';

export interface SummaryRow {
  id: string;
  label: string;
  unit: Metric['unit'];
  better: Metric['better'];
  baton: Spread;
  reference: Spread;
  /** Median Baton figure divided by median reference figure. */
  ratio: number;
  /** e.g. `<= 0.5` or `>= 2`; absent for rows shown for information. */
  target?: string;
  met?: boolean;
}

/** Medians over rounds for every metric, the ratio of the medians, and whether the target is met. */
export function summarize(reports: readonly ChildReport[]): SummaryRow[] {
  return METRICS.map((metric) => {
    const baton = spreadOf(samplesOf(reports, 'baton', metric));
    const reference = spreadOf(samplesOf(reports, 'reference', metric));
    const ratio = baton.median / reference.median;
    const row: SummaryRow = { id: metric.id, label: metric.label, unit: metric.unit, better: metric.better, baton, reference, ratio };
    if (metric.targetRatio !== undefined) {
      row.target = `${metric.better === 'lower' ? '<=' : '>='} ${metric.targetRatio}`;
      row.met = metric.better === 'lower' ? ratio <= metric.targetRatio : ratio >= metric.targetRatio;
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
