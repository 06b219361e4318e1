import { RunEventStreamError } from '../runEventStreamError.js';

/**
 * How much an `SSEParser` holds before it gives up (characters of decoded text): a server (or a
 * proxy) that sends a line without end, or an event without end, would otherwise grow a page's
 * memory without bound.
 */
export interface SSEParserLimits {
  /** The longest line (a field and its value). Default 16 MiB. */
  maxLineLength?: number;
  /** The most data one event may carry (its `data:` lines together). Default 16 MiB. */
  maxEventSize?: number;
  /** The most text held at once: the event so far and the line being read. Default 32 MiB. */
  maxBufferSize?: number;
}

const MiB = 1024 * 1024;

/** One dispatched server-sent event. */
export interface SSEMessage {
  /** The `event:` field, when the frame had one (`undefined` means the default, "message"). */
  event?: string;
  data: string;
  /** The last event id seen so far (`id:` fields persist, as in `EventSource`). */
  lastEventId: string;
}

/**
 * An incremental `text/event-stream` parser (the WHATWG algorithm): feed it decoded text in chunks
 * of any size, split anywhere (even between `\r` and `\n`); it returns the events each chunk
 * completes. `pending` tells whether it is in the middle of an event, so a stream that ends there
 * can be reported as broken instead of yielding half an event.
 */
export class SSEParser {
  readonly #maxLine: number;
  readonly #maxEvent: number;
  readonly #maxBuffer: number;
  #line = '';
  /** Characters of the current event's data so far (with the line feeds that join its lines). */
  #dataSize = 0;
  #afterCR = false;
  #data: string[] = [];
  #event: string | undefined;
  #fieldsSeen = false;
  #lastEventId = '';
  #started = false;

  constructor(limits: SSEParserLimits = {}) {
    this.#maxLine = limit(limits.maxLineLength, 16 * MiB, 'maxLineLength');
    this.#maxEvent = limit(limits.maxEventSize, 16 * MiB, 'maxEventSize');
    this.#maxBuffer = limit(limits.maxBufferSize, 32 * MiB, 'maxBufferSize');
  }

  /** Whether an event has begun (a field line or part of a line) and not been dispatched. */
  get pending(): boolean {
    return this.#fieldsSeen || this.#line !== '';
  }

  feed(text: string): SSEMessage[] {
    const out: SSEMessage[] = [];
    if (!this.#started && text !== '') {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (c === 10 && this.#afterCR && i === start && this.#line === '') {
        // The \n of a \r\n split across chunks (or right after a \r line end).
        this.#afterCR = false;
        start = i + 1;
        continue;
      }
      this.#hold(i - start);
      this.#line += text.slice(start, i);
      this.#processLine(this.#line, out);
      this.#line = '';
      this.#afterCR = c === 13;
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        i += 1;
        this.#afterCR = false;
      }
      start = i + 1;
    }
    if (start < text.length) {
      this.#hold(text.length - start);
      this.#line += text.slice(start);
      this.#afterCR = false;
    }
    return out;
  }

  /** Checks that `more` characters may join the line being read. */
  #hold(more: number): void {
    const line = this.#line.length + more;
    if (line > this.#maxLine) throw tooLarge(`A line of the stream is longer than ${this.#maxLine} characters (maxLineLength)`);
    if (line + this.#dataSize > this.#maxBuffer) throw tooLarge(`More than ${this.#maxBuffer} characters of one event are held at once (maxBufferSize)`);
  }

  #processLine(line: string, out: SSEMessage[]): void {
    if (line === '') {
      if (this.#fieldsSeen && this.#data.length > 0) {
        const message: SSEMessage = { data: this.#data.join('\n'), lastEventId: this.#lastEventId };
        if (this.#event !== undefined && this.#event !== '') message.event = this.#event;
        out.push(message);
      }
      this.#data = [];
      this.#dataSize = 0;
      this.#event = undefined;
      this.#fieldsSeen = false;
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return; // a comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    this.#fieldsSeen = true;
    switch (field) {
      case 'data':
        this.#dataSize += value.length + (this.#data.length > 0 ? 1 : 0);
        if (this.#dataSize > this.#maxEvent) {
          throw tooLarge(`An event carries more than ${this.#maxEvent} characters of data (maxEventSize)`);
        }
        this.#data.push(value);
        break;
      case 'event':
        this.#event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastEventId = value;
        break;
      default:
        // `retry` and unknown fields: nothing for a one-shot reader to do.
        break;
    }
  }
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 1) throw new TypeError(`SSEParser: ${name} must be a number >= 1, got ${String(value)}.`);
  return value;
}

function tooLarge(what: string): RunEventStreamError {
  return new RunEventStreamError('event_too_large', `${what}; reading stopped. Raise the limit if the server is trusted to send more.`);
}
