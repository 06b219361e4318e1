import type { SdkUnderTest } from './sdks.js';

/**
 * Turns tracing on for `under` and records, as JSON, every span it ends (the reference's and
 * Baton's `toJSON()` shape). The test resets it with `setTraceProcessors([])`.
 */
export function recordEndedSpans(under: SdkUnderTest): Record<string, any>[] {
  const ended: Record<string, any>[] = [];
  under.sdk.setTraceProcessors([
    {
      async onTraceStart() {},
      async onTraceEnd() {},
      async onSpanStart() {},
      async onSpanEnd(span: any) {
        ended.push(JSON.parse(JSON.stringify(span.toJSON())));
      },
      async shutdown() {},
      async forceFlush() {},
    } as never,
  ]);
  under.sdk.setTracingDisabled(false);
  return ended;
}
