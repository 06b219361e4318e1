/** The durable support desk, offline. `pnpm --filter @baton/durable-support start` */
import { durableSupportExample, stopExample, wasStopped } from './example.js';

// Ctrl-C: stop the workers and PostgreSQL before leaving (a server left running would outlive us).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping the workers and PostgreSQL...`);
    void stopExample().finally(() => process.exit(130));
  });
}

const started = Date.now();
console.log('== A durable support desk: two worker processes, a crash, and an approval CLI (offline)');
try {
  await durableSupportExample((line) => console.log(line));
  console.log(`\nDone in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  if (!wasStopped()) {
    console.error(error);
    process.exitCode = 1;
  } else await new Promise(() => {}); // the signal handler exits once everything is stopped
}
