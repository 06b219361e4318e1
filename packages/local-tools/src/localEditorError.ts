/**
 * An apply-patch operation a `LocalEditor` refused or could not apply: a path outside its root
 * (`..`, absolute, through a symlink pointing out), a missing file, a diff that is malformed or
 * does not apply. `path` is the path as the model wrote it; the file is left as it was.
 */
export class LocalEditorError extends Error {
  override readonly name = 'LocalEditorError';

  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
