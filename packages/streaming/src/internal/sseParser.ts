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
  #line = '';
  #afterCR = false;
  #data: string[] = [];
  #event: string | undefined;
  #fieldsSeen = false;
  #lastEventId = '';
  #started = false;

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
      this.#line += text.slice(start);
      this.#afterCR = false;
    }
    return out;
  }

  #processLine(line: string, out: SSEMessage[]): void {
    if (line === '') {
      if (this.#fieldsSeen && this.#data.length > 0) {
        const message: SSEMessage = { data: this.#data.join('\n'), lastEventId: this.#lastEventId };
        if (this.#event !== undefined && this.#event !== '') message.event = this.#event;
        out.push(message);
      }
      this.#data = [];
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
