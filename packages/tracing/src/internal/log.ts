import { getLogger } from '@baton/core';

export const logger = getLogger('baton:tracing');

const warned = new WeakSet<object>();

/** Logs the first failure of `source` only: a broken processor must not flood the log. */
export function warnOnce(source: object, message: string, error?: unknown): void {
  if (warned.has(source)) return;
  warned.add(source);
  logger.warn(`${message}${error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`} (further failures of it are not logged)`);
}
