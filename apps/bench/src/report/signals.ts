import { SDKS, type ChildReport } from '../protocol.js';

/**
 * One line on the tripwire runs that the table's percentages cannot say: whether each SDK gave its
 * model a `request.signal` at all, and in how many runs it fired while the request was in flight.
 */
export function signalNote(reports: readonly ChildReport[]): string {
  const parts = SDKS.map((sdk) => {
    let runs = 0;
    let signal = 0;
    let aborted = 0;
    for (const report of reports) {
      if (report.sdk !== sdk) continue;
      for (const { scenario, figures } of report.results) {
        if (scenario !== 'guardrail-trip' || figures.kind !== 'guardrail') continue;
        runs += figures.runs;
        signal += figures.signalRuns;
        aborted += figures.abortedRuns;
      }
    }
    const name = sdk === 'baton' ? 'Baton' : 'reference';
    return `${name} passed request.signal to the model in ${signal}/${runs} runs and it fired in ${aborted}/${runs}`;
  });
  return `Guardrail tripwire runs, all rounds: ${parts.join('; ')}.`;
}
