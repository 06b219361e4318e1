/**
 * `pnpm --filter @baton/bench cpu-profile-split <file.cpuprofile> [--cpu-per-run MS]`: a CPU profile of
 * the durable-latency worker (`BATON_BENCH_CPU_PROFILE`) summed by package (`scenarios/cpuProfileSplit.ts`).
 */
import { readFileSync } from 'node:fs';
import { cpuProfileSplit, formatCpuProfileSplit, type CpuProfile } from './scenarios/cpuProfileSplit.js';

const argv = process.argv.slice(2);
const file = argv.find((arg) => !arg.startsWith('--') && argv[argv.indexOf(arg) - 1] !== '--cpu-per-run');
if (file === undefined) throw new Error('usage: cpu-profile-split <file.cpuprofile> [--cpu-per-run MS]');
const at = argv.indexOf('--cpu-per-run');
const cpuPerRunMs = at >= 0 ? Number(argv[at + 1]) : undefined;
console.log(formatCpuProfileSplit(cpuProfileSplit(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile), cpuPerRunMs));
