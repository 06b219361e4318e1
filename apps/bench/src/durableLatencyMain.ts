/**
 * The durable-run latency scenario alone (issue 28): `pnpm --filter @baton/bench durable-latency [--quick]
 * [--concurrency N] [--poll-ms N] [--runs N] [--statements]`. `main.ts` runs it too, after the durable-runs line.
 */
import { DURABLE_LATENCY_QUICK, formatDurableLatency, measureDurableLatency } from './scenarios/durableLatency.js';

const argv = process.argv.slice(2);
const flag = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 && argv[at + 1] !== undefined ? Number(argv[at + 1]) : undefined;
};
const concurrency = flag('--concurrency');
const pollMs = flag('--poll-ms');
const runs = flag('--runs');
const result = await measureDurableLatency({
  ...(argv.includes('--quick') ? DURABLE_LATENCY_QUICK : {}),
  ...(concurrency === undefined ? {} : { workerConcurrency: concurrency }),
  ...(pollMs === undefined ? {} : { pollMs }),
  ...(runs === undefined ? {} : { latencyRuns: runs, throughputRuns: runs * 5 }),
  ...(argv.includes('--statements') ? { countStatements: true } : {}),
});
console.log(formatDurableLatency(result));
console.log(JSON.stringify(result));
