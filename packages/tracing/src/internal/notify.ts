import { warnOnce } from './log.js';

const reportFailure = (processor: object) => (error: unknown) => warnOnce(processor, 'A tracing processor failed', error);

/**
 * Calls `method` of `processor` without waiting; what it throws or rejects with is logged once,
 * never thrown. Hot: once per span start and end, so no closure unless the call returns a promise.
 */
export function notify<T>(processor: object, method: (this: any, item: T) => Promise<void> | void, item: T): void {
  try {
    const result = method.call(processor, item);
    if (result !== undefined) result.catch(reportFailure(processor));
  } catch (error) {
    warnOnce(processor, 'A tracing processor failed', error);
  }
}
