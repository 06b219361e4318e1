/** Where the demo writes (stdout in `main.ts`, a buffer in the test). Text is written as given. */
export type Log = (text: string) => void;

/** Milliseconds since `start`, rounded for printing. */
export function since(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

/** The header of a step: its number and title, then what to notice. */
export function stepHeader(log: Log, n: number, title: string, notice: string): void {
  log(`\n━━ ${n}. ${title}\n   Notice: ${notice}\n`);
}

/** A line inside a step. */
export function say(log: Log, text: string): void {
  log(`   ${text}\n`);
}
