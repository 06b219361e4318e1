import { deflateSync } from 'node:zlib';
import type { Computer, ComputerAction, ComputerButton, ComputerEnvironment } from '@baton/types';

/**
 * A `Computer` for tests: it performs nothing, records every action it is asked for (in the
 * model's `ComputerAction` shape), answers screenshots with a real base64 PNG of its dimensions
 * (a solid colour that changes with each action, so consecutive states differ), and refuses the
 * actions it is told to refuse by throwing `ComputerActionRefusedError`.
 */

export interface FakeComputerOptions {
  /** Default `'browser'`. */
  environment?: ComputerEnvironment;
  /** `[width, height]` of the screenshots, default `[1024, 768]`. */
  dimensions?: [number, number];
  /** Return a reason to refuse the action, `undefined` to perform it. Screenshots are asked too. */
  refuse?: (action: ComputerAction) => string | undefined;
}

/** An action a `FakeComputer` was told to refuse. */
export class ComputerActionRefusedError extends Error {
  override readonly name = 'ComputerActionRefusedError';
  constructor(
    readonly action: ComputerAction,
    readonly reason: string,
  ) {
    super(`The computer refused the ${action.type} action: ${reason}`);
  }
}

export class FakeComputer implements Computer {
  readonly environment: ComputerEnvironment;
  readonly dimensions: [number, number];
  /** The actions performed, in order (screenshots are counted in `screenshots`, not listed). */
  readonly actions: ComputerAction[] = [];
  /** The actions refused, with the reason given. */
  readonly refused: Array<{ action: ComputerAction; reason: string }> = [];
  /** How many screenshots were taken. */
  screenshots = 0;
  /** How many runs called `initRun`. */
  runsStarted = 0;
  private readonly refusals = new Map<ComputerAction['type'], string>();
  private readonly refuseWith: ((action: ComputerAction) => string | undefined) | undefined;

  constructor(options: FakeComputerOptions = {}) {
    this.environment = options.environment ?? 'browser';
    this.dimensions = options.dimensions ?? [1024, 768];
    const [width, height] = this.dimensions;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
      throw new RangeError(`FakeComputer: dimensions must be two positive integers, got [${width}, ${height}]`);
    }
    this.refuseWith = options.refuse;
  }

  /** Refuses every later action of this type (`reason` becomes the error's message). */
  refuseAction(type: ComputerAction['type'], reason = 'refused by the test'): this {
    this.refusals.set(type, reason);
    return this;
  }

  /** Performs actions of this type again. */
  allowAction(type: ComputerAction['type']): this {
    this.refusals.delete(type);
    return this;
  }

  initRun(): void {
    this.runsStarted += 1;
  }

  screenshot(): string {
    this.check({ type: 'screenshot' });
    this.screenshots += 1;
    return solidPng(this.dimensions[0], this.dimensions[1], colourFor(this.actions.length));
  }

  click(x: number, y: number, button: ComputerButton): void {
    this.perform({ type: 'click', x, y, button });
  }

  doubleClick(x: number, y: number): void {
    this.perform({ type: 'double_click', x, y });
  }

  scroll(x: number, y: number, scrollX: number, scrollY: number): void {
    this.perform({ type: 'scroll', x, y, scroll_x: scrollX, scroll_y: scrollY });
  }

  type(text: string): void {
    this.perform({ type: 'type', text });
  }

  wait(): void {
    this.perform({ type: 'wait' });
  }

  move(x: number, y: number): void {
    this.perform({ type: 'move', x, y });
  }

  keypress(keys: string[]): void {
    this.perform({ type: 'keypress', keys: [...keys] });
  }

  drag(path: [number, number][]): void {
    this.perform({ type: 'drag', path: path.map(([x, y]) => ({ x, y })) });
  }

  private perform(action: ComputerAction): void {
    this.check(action);
    this.actions.push(action);
  }

  private check(action: ComputerAction): void {
    const reason = this.refusals.get(action.type) ?? this.refuseWith?.(action);
    if (reason === undefined) return;
    this.refused.push({ action, reason });
    throw new ComputerActionRefusedError(action, reason);
  }
}

/** A colour per state: screenshots taken after different numbers of actions differ. */
function colourFor(step: number): [number, number, number] {
  return [(40 + step * 67) % 256, (120 + step * 151) % 256, (200 + step * 29) % 256];
}

/** Encodes a solid-colour RGB image as a base64 PNG. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): string {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, default compression, filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]).toString('base64');
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Buffer): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
