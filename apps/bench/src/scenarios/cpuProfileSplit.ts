/**
 * A V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` and `BATON_BENCH_CPU_PROFILE` write them)
 * summed by where the code comes from: Baton's agent loop, this repository's DBOS glue, DBOS, the
 * `pg` driver, serialization, Node itself, socket writes, garbage collection. Self time of each
 * sampled function, idle samples left out: the split of a process's busy CPU that issue 28 asks
 * for, to put beside the CPU a run measured from `/proc`.
 */

/** The parts of a V8 `.cpuprofile` this reads. */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string } }>;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export type CpuGroup =
  | 'socket writes'
  | 'Node (streams, async hooks, timers)'
  | 'Baton loop (core, types, Effect, zod)'
  | 'Baton dbos glue'
  | 'DBOS'
  | 'pg driver'
  | 'serialization (SuperJSON)'
  | 'garbage collection'
  | 'V8 and other native'
  | 'other';

/** Where a sampled function's code comes from, by its script's URL (pnpm's store paths or the repository's packages). */
export function cpuGroupOf(frame: { readonly functionName: string; readonly url: string }): CpuGroup | 'idle' {
  const { url, functionName } = frame;
  if (url === '') {
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'garbage collection';
    // Every statement pg sends is a socket write: their syscalls show as these natives.
    if (functionName === 'writev' || functionName === 'writeBuffer') return 'socket writes';
    return 'V8 and other native';
  }
  if (/superjson|copy-anything|is-what/.test(url)) return 'serialization (SuperJSON)';
  if (/@dbos-inc/.test(url)) return 'DBOS';
  if (/\/(pg|pg-protocol|pg-pool|pg-types|pg-connection-string|postgres-[a-z-]+)(@[^/]*)?\//.test(url)) return 'pg driver';
  if (/packages\/dbos\//.test(url)) return 'Baton dbos glue';
  if (/packages\/(core|types)\/|\/effect@|\/effect\/|\/zod(@[^/]*)?\//.test(url)) return 'Baton loop (core, types, Effect, zod)';
  if (url.startsWith('node:')) return 'Node (streams, async hooks, timers)';
  return 'other';
}

/** Busy milliseconds by group, largest first, with their share of the busy time. */
export function cpuProfileSplit(profile: CpuProfile): { readonly busyMs: number; readonly groups: ReadonlyArray<{ readonly group: CpuGroup; readonly ms: number; readonly share: number }> } {
  const groupOfNode = new Map(profile.nodes.map((node) => [node.id, cpuGroupOf(node.callFrame)]));
  const totals = new Map<CpuGroup, number>();
  let busyUs = 0;
  profile.samples.forEach((id, index) => {
    const group = groupOfNode.get(id);
    const us = profile.timeDeltas[index] ?? 0;
    if (group === undefined || group === 'idle') return;
    totals.set(group, (totals.get(group) ?? 0) + us);
    busyUs += us;
  });
  const groups = [...totals].sort((a, b) => b[1] - a[1]).map(([group, us]) => ({ group, ms: us / 1000, share: busyUs === 0 ? 0 : us / busyUs }));
  return { busyMs: busyUs / 1000, groups };
}

/** One line a group; with `cpuPerRunMs` (measured from `/proc`), each share also as milliseconds a run. */
export function formatCpuProfileSplit(split: ReturnType<typeof cpuProfileSplit>, cpuPerRunMs?: number): string {
  const lines = split.groups.map(({ group, ms, share }) => {
    const perRun = cpuPerRunMs === undefined ? '' : `  ${(share * cpuPerRunMs).toFixed(2).padStart(6)} ms a run`;
    return `  ${(share * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(7)} ms${perRun}  ${group}`;
  });
  return [`Busy CPU ${split.busyMs.toFixed(0)} ms (idle samples left out):`, ...lines].join('\n');
}
