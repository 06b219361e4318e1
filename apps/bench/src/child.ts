/**
 * One benchmark child: loads exactly one SDK, runs the given scenarios one after another, and
 * prints one JSON line (a `ChildReport`) on stdout. The parent starts it as
 *   node --expose-gc --import tsx src/child.ts <sdk> <scenario,...> <sizes-json>
 */
import type { BenchAdapter } from './sdks/adapter.js';
import { ALL_SCENARIOS, SDKS, type ChildReport, type ScenarioFigures, type ScenarioId, type SdkName, type WorkSizes } from './protocol.js';
import { measureToolsetOverhead, measureTracedTurnOverhead, measureTurnOverhead } from './scenarios/turnOverhead.js';
import { measureTextDelivery } from './scenarios/textDelivery.js';
import { measurePausedRunHeap } from './scenarios/pausedRunHeap.js';
import { measureGuardrailLatency } from './scenarios/guardrailLatency.js';
import { measureStateSerialization } from './scenarios/stateSerialization.js';
import { measureIdleConsumer } from './scenarios/idleConsumer.js';
import { measureConcurrentRss } from './scenarios/concurrentRss.js';

async function loadAdapter(sdk: SdkName): Promise<BenchAdapter> {
  // Dynamic, so a child never loads the other SDK.
  return sdk === 'baton' ? (await import('./sdks/baton.js')).adapter : (await import('./sdks/reference.js')).adapter;
}

function runScenario(adapter: BenchAdapter, scenario: ScenarioId, sizes: WorkSizes): Promise<ScenarioFigures> {
  switch (scenario) {
    case 'turns-plain':
      return measureTurnOverhead(adapter, sizes, false);
    case 'turns-streamed':
      return measureTurnOverhead(adapter, sizes, true);
    case 'turns-toolset':
      return measureToolsetOverhead(adapter, sizes, false);
    case 'turns-toolset-streamed':
      return measureToolsetOverhead(adapter, sizes, true);
    case 'turns-traced':
      return measureTracedTurnOverhead(adapter, sizes, 'memory');
    case 'turns-otlp':
      return measureTracedTurnOverhead(adapter, sizes, 'otlp');
    case 'delivery':
      return measureTextDelivery(adapter, sizes);
    case 'paused-heap':
      return measurePausedRunHeap(adapter, sizes);
    case 'state-serialization':
      return measureStateSerialization(adapter, sizes);
    case 'idle-consumer':
      return measureIdleConsumer(adapter, sizes);
    case 'concurrent-rss':
      return measureConcurrentRss(adapter, sizes);
    case 'guardrail-trip':
    case 'guardrail-parallel':
    case 'guardrail-blocking':
      return measureGuardrailLatency(adapter, sizes, scenario);
  }
}

// tsx turns on source-mapped stack traces; the SDKs' own code is plain JavaScript, so measure them
// as they run in production (where reading `error.stack` is cheap).
process.setSourceMapsEnabled(false);

const [sdkArg, scenariosArg, sizesJson] = process.argv.slice(2);
const scenarios = (scenariosArg ?? '').split(',') as ScenarioId[];
if (!SDKS.includes(sdkArg as SdkName) || !scenarios.every((s) => ALL_SCENARIOS.includes(s)) || sizesJson === undefined) {
  console.error(`usage: child.ts <${SDKS.join('|')}> <${ALL_SCENARIOS.join(',')}> <sizes-json>`);
  process.exit(2);
}
const sdk = sdkArg as SdkName;
const sizes = JSON.parse(sizesJson) as WorkSizes;
const adapter = await loadAdapter(sdk);
const report: ChildReport = { sdk, results: [] };
for (const scenario of scenarios) report.results.push({ scenario, figures: await runScenario(adapter, scenario, sizes) });
process.stdout.write(`${JSON.stringify(report)}\n`);
