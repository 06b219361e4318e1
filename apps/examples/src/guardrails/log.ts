/** Where an example prints: the console when run, a collector in tests. */
export type Log = (line: string) => void;

export const consoleLog: Log = (line) => console.log(line);
