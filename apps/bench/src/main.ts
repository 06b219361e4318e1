/**
 * Baton vs @openai/agents, side by side in one run. Each SDK runs in its own child process; the
 * children alternate (Baton, reference, Baton, reference, ...) for several rounds, and the table
 * shows the median of the rounds. A benchmark a person runs and reads; it asserts nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { QUICK, parseOptions } from './options.js';
import { SCENARIOS, SDKS, SOLO_SCENARIOS, type ChildReport } from './protocol.js';
import { runChild } from './runChild.js';
import { IDLE_BUFFER_SIZE } from './sdks/idleScript.js';
import { summarize } from './report/summary.js';
import { formatTable } from './report/table.js';
import { signalNote } from './report/signals.js';
import { idleNote, stateNote } from './report/notes.js';
import { formatStateReading, measureStateReading } from './scenarios/stateReading.js';
import { formatImportTime, measureImportTime } from './scenarios/importTime.js';
import { formatProviderOverhead, measureProviderOverhead } from './scenarios/providerOverhead.js';
import { DURABLE_QUICK, formatDurableRuns, measureDurableRuns } from './scenarios/durableRuns.js';
import { DURABLE_LATENCY_QUICK, formatDurableLatency, measureDurableLatency } from './scenarios/durableLatency.js';
import { formatInstallSize, measureInstallSize } from './scenarios/installSize.js';

const options = parseOptions(process.argv.slice(2));
const benchPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const referenceVersion = benchPackage.dependencies['@openai/agents'];

console.log(
  `Baton vs @openai/agents ${referenceVersion}: ${options.rounds} round(s), each SDK in its own process, alternating; ` +
    `instant models (timed ones for the guardrail rows), no network.`,
);
const started = performance.now();
const reports: ChildReport[] = [];
for (let round = 1; round <= options.rounds; round++) {
  const timings: string[] = [];
  for (const sdk of SDKS) {
    const t0 = performance.now();
    reports.push(await runChild(sdk, SCENARIOS, options.sizes));
    // Peak RSS is per process: each solo scenario gets a fresh child, compiled to JavaScript so the
    // TypeScript loader's memory is not counted for either SDK.
    for (const solo of SOLO_SCENARIOS) reports.push(await runChild(sdk, [solo], options.sizes, { compiled: true }));
    timings.push(`${sdk} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  console.log(`  round ${round}/${options.rounds}: ${timings.join(', ')}`);
}

const rows = summarize(reports);
const { sizes } = options;
const perBlock = Math.max(1, Math.round(sizes.overheadRuns / sizes.blocks));
console.log(
  `\nMedians of ${options.rounds} round(s). Turn overhead: per child, the median of ${sizes.blocks} block(s) of ${perBlock} runs, ` +
    `each run ${sizes.toolTurns} tool turns + 1 final turn (after ${sizes.overheadWarmupRuns} warm-up runs). ` +
    `Delivery: per child, the median of ${sizes.deliveryRuns} streamed response(s) of ${sizes.deltas.toLocaleString('en-US')} deltas. ` +
    `Heap: ${sizes.pausedRuns.toLocaleString('en-US')} paused runs kept alive. ` +
    `Paused run state: runs paused after ${sizes.stateTurns.join(' / ')} tool turns, each call timed in ${sizes.stateTiming.blocks} block(s) after a warm-up. ` +
    `Peak RSS: ${sizes.concurrentRuns.toLocaleString('en-US')} plain 3-turn runs of one agent started at once, in a child of its own (compiled to JavaScript, no TypeScript loader). ` +
    `Idle consumer: a ${sizes.idleDeltas.toLocaleString('en-US')}-delta stream left unread for ${sizes.idleMs.toLocaleString('en-US')} ms (Baton's buffer ${IDLE_BUFFER_SIZE} events), then read to the end. ` +
    `Guardrails: per child, the median of ${sizes.guardrailRuns} timed run(s) per scenario (after ${sizes.guardrailWarmupRuns} warm-up).\n`,
);
console.log(formatTable(rows));
console.log(`\n${stateNote(reports)}`);
console.log(`\n${idleNote(reports)}`);
console.log(`\n${signalNote(reports)}`);
const stateReading = await measureStateReading();
console.log(`\n${formatStateReading(stateReading)}`);
const importTime = await measureImportTime();
console.log(`\n${formatImportTime(importTime)}`);
const providerOverhead = await measureProviderOverhead(options.sizes === QUICK ? { blocks: 1, runsPerBlock: 5, rounds: 1 } : {});
console.log(`\n${formatProviderOverhead(providerOverhead)}`);
// Worker processes and a PostgreSQL of their own; fewer runs and workers for --quick.
const durableRuns = await measureDurableRuns(options.sizes === QUICK ? DURABLE_QUICK : {});
console.log(`\n${formatDurableRuns(durableRuns)}`);
// One worker process with the package's defaults: start -> result latency and runs/s (issue 28).
const durableLatency = await measureDurableLatency(options.sizes === QUICK ? DURABLE_LATENCY_QUICK : {});
console.log(`\n${formatDurableLatency(durableLatency)}`);
// A throwaway registry the packages are released to, and npm installs from it and from npm.
const installSize = await measureInstallSize(referenceVersion!);
console.log(`\n${formatInstallSize(installSize)}`);
const missed = rows.filter((row) => row.met === false);
console.log(
  `\nBaton/Ref is Baton's figure divided by the reference's; "Better" says which direction is better for that row. ` +
    `${missed.length === 0 ? 'All targets met.' : `Targets missed: ${missed.map((row) => row.label).join('; ')}.`}`,
);

const resultsDir = new URL('../results/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
const file = new URL('latest.json', resultsDir);
writeFileSync(
  file,
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: availableParallelism(), cpuModel: cpus()[0]?.model },
      referenceVersion,
      rounds: options.rounds,
      sizes,
      durationSeconds: (performance.now() - started) / 1000,
      rows,
      stateReading,
      importTime,
      providerOverhead,
      durableRuns,
      durableLatency,
      installSize,
      reports,
    },
    null,
    2,
  )}\n`,
);
console.log(`Results written to ${file.pathname}`);
