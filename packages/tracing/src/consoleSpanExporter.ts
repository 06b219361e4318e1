import type { TracingExporter } from './processor.js';
import type { Span } from './span.js';
import type { Trace } from './trace.js';

/** Prints each exported trace and span on the console (for development). */
export class ConsoleSpanExporter implements TracingExporter {
  async export(items: (Trace | Span<any>)[]): Promise<void> {
    for (const item of items) {
      if (item.type === 'trace') {
        console.log(`[Exporter] Export trace traceId=${item.traceId} name=${item.name}`);
      } else {
        console.log(`[Exporter] Export span: ${JSON.stringify(item.toJSON())}`);
      }
    }
  }
}
