/**
 * The durable-runs scenario alone (issue 15): `pnpm --filter @baton/bench durable [--quick]`.
 * `main.ts` runs it too, after the provider-overhead line.
 */
import { DURABLE_QUICK, formatDurableRuns, measureDurableRuns } from './scenarios/durableRuns.js';


const quick = process.argv.includes('--quick');
const result = await measureDurableRuns(quick ? DURABLE_QUICK : {});
console.log(formatDurableRuns(result));
console.log(JSON.stringify(result));
