import { RunEventStreamError, readRunEvents } from '@baton/streaming/client';

// In the browser (or Node): typed events, ending with `run_end`. Leaving the loop cancels the run.
export async function ask(message: string, onText: (text: string) => void): Promise<unknown> {
  const response = await fetch('/api/run', { method: 'POST', body: JSON.stringify({ message }) });
  try {
    for await (const event of readRunEvents(response)) {
      if (event.event_type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') onText(event.data.delta);
      if (event.event_type === 'run_end') return event.finalOutput;
    }
  } catch (error) {
    if (error instanceof RunEventStreamError) console.error(error.reason, error.message);
    throw error;
  }
  return undefined;
}
