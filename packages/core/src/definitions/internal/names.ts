/** Tool and handoff names: every character other than a letter, a digit or `_` becomes `_` (case preserved). */
export function toFunctionToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}
