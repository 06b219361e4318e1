import { getCurrentTrace, withSpanContext } from './context.js';
import { getGlobalTraceProvider } from './globalTraceProvider.js';
import type { Trace, TraceOptions } from './trace.js';

/**
 * Runs `fn` in a trace: a new one named `trace` (with `options`), or the `Trace` given. Runs
 * started inside join it; it starts before `fn` and ends after `fn` settles.
 */
export async function withTrace<T>(trace: string | Trace, fn: (trace: Trace) => Promise<T>, options: TraceOptions = {}): Promise<T> {
  const provider = getGlobalTraceProvider();
  const current = typeof trace === 'string' ? provider.createTrace({ ...options, name: trace }) : trace;
  return withSpanContext(current, null, async () => {
    await current.start();
    try {
      return await fn(current);
    } finally {
      await current.end();
    }
  });
}

/** `fn` in the current trace if there is one, else in a new trace made from `options`. */
export async function getOrCreateTrace<T>(fn: () => Promise<T>, options: TraceOptions = {}): Promise<T> {
  if (getCurrentTrace()) return fn();
  return withTrace(options.name ?? 'Agent workflow', () => fn(), options);
}

