/** Where a trace made without a processor reports: the global provider's processors, once it exists. */
export interface DefaultSink {
  onTraceStart(trace: object): Promise<void>;
  onTraceEnd(trace: object): Promise<void>;
}

const nowhere: DefaultSink = { onTraceStart: async () => {}, onTraceEnd: async () => {} };
let registered: DefaultSink | undefined;

export function registerDefaultSink(sink: DefaultSink): void {
  registered = sink;
}

export function defaultSink(): DefaultSink {
  return registered ?? nowhere;
}
