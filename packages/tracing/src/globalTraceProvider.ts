import { TraceProvider } from './traceProvider.js';
import { registerDefaultSink } from './internal/defaultSink.js';
import { installTracing } from './internal/runTracing.js';

let globalProvider: TraceProvider | undefined;

/** The provider the module-level API and every run use; made (and hooked into Baton's runs) on first use. */
export function getGlobalTraceProvider(): TraceProvider {
  if (!globalProvider) {
    globalProvider = new TraceProvider();
    registerDefaultSink(globalProvider.processor);
    installTracing(globalProvider);
  }
  return globalProvider;
}
