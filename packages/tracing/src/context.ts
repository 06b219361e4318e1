import type { Span } from './span.js';
import type { Trace } from './trace.js';
import type { SpanError } from './spanData.js';

/** Where the current trace and span live. `AsyncLocalStorage` satisfies it. */
export interface TracingContextStorage<TStore = any> {
  run<TResult>(store: TStore, callback: () => TResult): TResult;
  getStore(): TStore | undefined;
  enterWith(store: TStore | undefined): void;
}

/** The current trace and span, as captured by `getCurrentTraceContext()`. */
export type TraceContextSnapshot = Readonly<{ trace: Trace; span?: Span<any> | null }>;

interface ContextState {
  trace: Trace;
  span: Span<any> | null;
}

/**
 * The current trace and span follow async work across `await` through Node's AsyncLocalStorage
 * (loaded without a static `node:` import, so this package loads anywhere). Where it does not
 * exist, the fallback follows synchronous calls only: pass the context explicitly there with
 * `getCurrentTraceContext()` / `withTraceContext()`, or install a storage of the platform's with
 * `setTracingContextStorage()`.
 */
let storage: TracingContextStorage<ContextState> = defaultStorage();

function defaultStorage(): TracingContextStorage<ContextState> {
  const hooks = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:async_hooks') as
    | { AsyncLocalStorage: new () => TracingContextStorage<ContextState> }
    | undefined;
  return hooks ? new hooks.AsyncLocalStorage() : new SynchronousStorage();
}

class SynchronousStorage implements TracingContextStorage<ContextState> {
  #store: ContextState | undefined;
  run<T>(store: ContextState, callback: () => T): T {
    const previous = this.#store;
    this.#store = store;
    try {
      return callback();
    } finally {
      this.#store = previous;
    }
  }
  getStore(): ContextState | undefined {
    return this.#store;
  }
  enterWith(store: ContextState | undefined): void {
    this.#store = store;
  }
}

/** Replaces where the tracing context is kept (`undefined`: back to the default). */
export function setTracingContextStorage(replacement?: TracingContextStorage): void {
  storage = replacement ?? defaultStorage();
}

export function getCurrentTrace(): Trace | null {
  return storage.getStore()?.trace ?? null;
}

export function getCurrentSpan(): Span<any> | null {
  return storage.getStore()?.span ?? null;
}

export function getCurrentTraceContext(): TraceContextSnapshot | null {
  const store = storage.getStore();
  return store ? { trace: store.trace, span: store.span } : null;
}

/** Runs `fn` inside a captured context (from `getCurrentTraceContext()`), for example in a callback scheduled elsewhere. */
export function withTraceContext<T>(context: TraceContextSnapshot | null | undefined, fn: () => T): T {
  if (!context) return fn();
  return storage.run({ trace: context.trace, span: context.span ?? null }, fn);
}

/** Runs `fn` inside `span` of `trace`: what runs there sees them as current. */
export function withSpanContext<T>(trace: Trace, span: Span<any> | null, fn: () => T): T {
  return storage.run({ trace, span }, fn);
}

/** Makes `span` the current span of this context (the previous one is remembered for `resetCurrentSpan`). */
export function setCurrentSpan(span: Span<any>): void {
  const store = storage.getStore();
  if (!store) throw new Error('setCurrentSpan: there is no active trace (call it inside withTrace() or a run).');
  span.previousSpan = store.span ?? undefined;
  store.span = span;
}

/** Makes the span that was current before the last `setCurrentSpan` current again. */
export function resetCurrentSpan(): void {
  const store = storage.getStore();
  if (store?.span) store.span = store.span.previousSpan ?? null;
}

export function addErrorToCurrentSpan(error: SpanError): void {
  getCurrentSpan()?.setError(error);
}

/** Runs `fn` with a copy of the current context, so spans it makes current do not leak out. */
export function withNewSpanContext<T>(fn: () => Promise<T>): Promise<T> {
  const store = storage.getStore();
  return store ? storage.run({ ...store }, fn) : fn();
}
