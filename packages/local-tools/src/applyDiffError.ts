/**
 * A V4A diff that is malformed or does not apply to the file it targets. `hunk` is the 1-based
 * number of the `@@` section at fault, when one is.
 */
export class ApplyDiffError extends Error {
  override readonly name = 'ApplyDiffError';
  readonly hunk: number | undefined;

  constructor(problem: string, hunk?: number) {
    super(hunk === undefined ? `Invalid diff: ${problem}` : `Invalid diff, hunk ${hunk}: ${problem}`);
    this.hunk = hunk;
  }
}
