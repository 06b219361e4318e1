import { StringDecoder } from 'node:string_decoder';

/**
 * Collects a stream's text up to `limit` characters and counts what it drops, so a command that
 * floods its output costs bounded memory. UTF-8 characters split across chunks decode whole.
 */
export class CappedText {
  private readonly decoder = new StringDecoder('utf8');
  private kept = '';
  private dropped = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.take(this.decoder.write(chunk));
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** The kept text, with a closing note saying how much was cut when the limit was reached. */
  finish(): string {
    this.take(this.decoder.end());
    if (this.dropped === 0) return this.kept;
    return `${this.kept}\n[output truncated: ${this.dropped} more characters not shown (limit ${this.limit})]`;
  }

  private take(text: string): void {
    const room = this.limit - this.kept.length;
    if (text.length <= room) {
      this.kept += text;
      return;
    }
    this.kept += text.slice(0, Math.max(0, room));
    this.dropped += text.length - Math.max(0, room);
  }
}
