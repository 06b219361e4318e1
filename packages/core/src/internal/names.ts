/** Tool names must match `^[a-zA-Z0-9_-]+$`: anything else becomes `_` (case preserved). */
export function toFunctionToolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}
