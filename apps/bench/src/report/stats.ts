export interface Spread {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function spreadOf(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, samples };
}
