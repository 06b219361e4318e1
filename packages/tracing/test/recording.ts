import type { Span, Trace, TracingProcessor } from '../src/index.js';

export interface RecordedSpan {
  readonly id: string;
  readonly parent: string | null;
  readonly trace: string;
  readonly json: Record<string, any>;
}

/** A processor that keeps everything it is told, in order. */
export function recordingProcessor() {
  const events: string[] = [];
  const ended: RecordedSpan[] = [];
  const traces: Record<string, any>[] = [];
  const processor: TracingProcessor = {
    async onTraceStart(trace: Trace) {
      events.push(`trace_start:${trace.name}`);
      traces.push(trace.toJSON() as Record<string, any>);
    },
    async onTraceEnd(trace: Trace) {
      events.push(`trace_end:${trace.name}`);
    },
    async onSpanStart(span: Span<any>) {
      events.push(`start:${label(span.spanData)}`);
    },
    async onSpanEnd(span: Span<any>) {
      events.push(`end:${label(span.spanData)}`);
      ended.push({ id: span.spanId, parent: span.parentId, trace: span.traceId, json: span.toJSON() as Record<string, any> });
    },
    async shutdown() {},
    async forceFlush() {},
  };
  return { processor, events, ended, traces };
}

function label(data: { type: string; name?: string }): string {
  return data.name === undefined ? data.type : `${data.type}(${data.name})`;
}

/** The span tree as indented lines: `type name` under its parent, children in end order. */
export function tree(spans: readonly RecordedSpan[]): string[] {
  const lines: string[] = [];
  const children = (parent: string | null) => spans.filter((s) => s.parent === parent);
  const walk = (parent: string | null, depth: number) => {
    for (const span of children(parent)) {
      const data = span.json.span_data;
      const name = data.type === 'custom' ? `${data.name}${data.data?.name ? ` ${data.data.name}` : data.data?.agent_name ? ` ${data.data.agent_name}` : ''}` : (data.name ?? data.to_agent ?? '');
      lines.push(`${'  '.repeat(depth)}${data.type} ${name}`.trimEnd());
      walk(span.id, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}
