/**
 * The idle-consumer scenario's model, shared by both SDKs' adapters: one streamed response of
 * `deltas` text deltas, produced as fast as the SDK takes them. Like a network stream, the deltas
 * arrive in chunks (`IDLE_CHUNK` deltas, then a turn of the event loop, as a socket read would give),
 * so timers and the heap sampler run while a run is producing. The probe counts what the model has
 * produced and samples the heap at every chunk, so a peak between two timer ticks is not missed.
 */
import { getHeapStatistics } from 'node:v8';
import { DELTA_TEXT } from './instantScript.js';

export const IDLE_CHUNK = 100;

/** The events buffer Baton is given in the idle-consumer scenario (also Baton's default). */
export const IDLE_BUFFER_SIZE = 256;

export class FloodProbe {
  /** Text deltas the model has yielded to the SDK so far. */
  produced = 0;
  /** The model has yielded its last event (`response_done`). */
  finished = false;
  /** Largest `used_heap_size` seen since `resetPeak()`. */
  peakHeap = 0;

  constructor(readonly deltas: number) {}

  sampleHeap(): void {
    const used = getHeapStatistics().used_heap_size;
    if (used > this.peakHeap) this.peakHeap = used;
  }

  resetPeak(): void {
    this.peakHeap = 0;
    this.sampleHeap();
  }
}

/** The deltas, counted on the probe; a turn of the event loop after every chunk. */
export async function* floodDeltas(probe: FloodProbe): AsyncGenerator<string> {
  for (let i = 0; i < probe.deltas; i++) {
    if (i > 0 && i % IDLE_CHUNK === 0) {
      probe.sampleHeap();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    probe.produced += 1;
    yield DELTA_TEXT;
  }
  probe.sampleHeap();
}

/** The full text of the response, built once the deltas are out (as a provider's final event carries it). */
export function floodText(probe: FloodProbe): string {
  return DELTA_TEXT.repeat(probe.deltas);
}
