import { ModelBehaviorError, type AudioContent } from '@baton/types';
import { isRecord, type Json } from '../json.js';

/**
 * A spoken answer streamed in `delta.audio` pieces, assembled as the reference does: `data` and
 * `transcript` are appended, other fields (`id`, `expires_at`) keep their latest value. A piece that
 * is not an object, or whose data or transcript is not text, is a `ModelBehaviorError`.
 */
export class StreamedAudio {
  #fields: Json | undefined;

  get present(): boolean {
    return this.#fields !== undefined;
  }

  /** Takes the `audio` of a delta that has one (null or absent: nothing). */
  add(delta: Json): void {
    if (!Object.prototype.hasOwnProperty.call(delta, 'audio') || delta.audio === undefined || delta.audio === null) return;
    let piece: unknown;
    try {
      piece = structuredClone(delta.audio);
    } catch {
      throw new ModelBehaviorError('Chat Completions stream returned malformed audio output: expected delta.audio to be cloneable.');
    }
    if (!isRecord(piece)) throw new ModelBehaviorError('Chat Completions stream returned malformed audio output: expected delta.audio to be an object.');
    const fields = (this.#fields ??= {});
    for (const [key, value] of Object.entries(piece)) {
      if (value === undefined || value === null) continue;
      if (key === 'data' || key === 'transcript') {
        if (typeof value !== 'string') throw new ModelBehaviorError(`Chat Completions stream returned malformed audio output: expected delta.audio.${key} to be a string.`);
        fields[key] = `${fields[key] ?? ''}${value}`;
      } else {
        // A defined property, so a key such as `__proto__` is data, not a prototype.
        Object.defineProperty(fields, key, { value, writable: true, enumerable: true, configurable: true });
      }
    }
  }

  /** The assembled audio as a content part (none when no piece came). */
  content(): AudioContent | undefined {
    if (this.#fields === undefined) return undefined;
    const { data, ...providerData } = this.#fields;
    if (typeof data !== 'string') throw new ModelBehaviorError('Chat Completions stream ended with audio output but no audio data.');
    return { type: 'audio', audio: data, providerData };
  }
}
