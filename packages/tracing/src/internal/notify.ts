import { warnOnce } from './log.js';

/** Processors are called without waiting; what they throw or reject with is logged once, never thrown. */
export function notify(processor: object, call: () => Promise<void>): void {
  try {
    void call().catch((error: unknown) => warnOnce(processor, 'A tracing processor failed', error));
  } catch (error) {
    warnOnce(processor, 'A tracing processor failed', error);
  }
}
