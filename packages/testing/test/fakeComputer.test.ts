import { inflateSync } from 'node:zlib';
import type { Computer } from '@baton/types';
import { describe, expect, it } from 'vitest';
import { ComputerActionRefusedError, FakeComputer } from '../src/index.js';

/** Decodes the fake's PNG: checks the signature and every chunk's CRC, returns size and first pixel. */
function decodePng(base64: string): { width: number; height: number; pixel: number[] } {
  const png = Buffer.from(base64, 'base64');
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.subarray(offset + 4, offset + 8).toString('ascii');
    const body = png.subarray(offset + 8, offset + 8 + length);
    const crc = png.readUInt32BE(offset + 8 + length);
    expect(crc).toBe(zlibCrc(png.subarray(offset + 4, offset + 8 + length)));
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([...body.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(data));
  expect(pixels.length).toBe(height * (1 + width * 3));
  return { width, height, pixel: [...pixels.subarray(1, 4)] };
}

function zlibCrc(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

describe('FakeComputer', () => {
  it('records each action in the model\'s shape and counts screenshots apart', async () => {
    const computer: Computer = new FakeComputer();
    await computer.initRun?.();
    await computer.click(1, 2, 'left');
    await computer.doubleClick(3, 4);
    await computer.scroll(5, 6, 0, 120);
    await computer.type('hello');
    await computer.wait();
    await computer.move(7, 8);
    await computer.keypress(['CTRL', 'A']);
    await computer.drag([
      [0, 0],
      [10, 20],
    ]);
    await computer.screenshot();
    const fake = computer as FakeComputer;
    expect(fake.actions).toEqual([
      { type: 'click', x: 1, y: 2, button: 'left' },
      { type: 'double_click', x: 3, y: 4 },
      { type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: 120 },
      { type: 'type', text: 'hello' },
      { type: 'wait' },
      { type: 'move', x: 7, y: 8 },
      { type: 'keypress', keys: ['CTRL', 'A'] },
      { type: 'drag', path: [{ x: 0, y: 0 }, { x: 10, y: 20 }] },
    ]);
    expect(fake.screenshots).toBe(1);
    expect(fake.runsStarted).toBe(1);
    expect(fake.environment).toBe('browser');
    expect(fake.dimensions).toEqual([1024, 768]);
  });

  it('returns a valid base64 PNG of its dimensions that changes after an action', () => {
    const computer = new FakeComputer({ environment: 'ubuntu', dimensions: [32, 16] });
    const before = decodePng(computer.screenshot());
    expect(before).toMatchObject({ width: 32, height: 16 });
    expect(computer.screenshot()).toBe(computer.screenshot());
    computer.click(1, 1, 'right');
    const after = decodePng(computer.screenshot());
    expect(after.pixel).not.toEqual(before.pixel);
  });

  it('refuses the actions it is told to, with an error naming the action, and records them apart', () => {
    const computer = new FakeComputer({ refuse: (action) => (action.type === 'type' && action.text.includes('password') ? 'no typing secrets' : undefined) });
    computer.type('hello');
    expect(() => computer.type('my password')).toThrow(new ComputerActionRefusedError({ type: 'type', text: 'my password' }, 'no typing secrets'));
    computer.refuseAction('click', 'clicks are off');
    const error = (() => {
      try {
        computer.click(1, 1, 'left');
      } catch (e) {
        return e as ComputerActionRefusedError;
      }
    })();
    expect(error).toBeInstanceOf(ComputerActionRefusedError);
    expect(error?.message).toBe('The computer refused the click action: clicks are off');
    computer.refuseAction('screenshot');
    expect(() => computer.screenshot()).toThrow('The computer refused the screenshot action: refused by the test');
    computer.allowAction('click');
    computer.click(2, 2, 'left');
    expect(computer.actions).toEqual([
      { type: 'type', text: 'hello' },
      { type: 'click', x: 2, y: 2, button: 'left' },
    ]);
    expect(computer.refused.map(({ action, reason }) => [action.type, reason])).toEqual([
      ['type', 'no typing secrets'],
      ['click', 'clicks are off'],
      ['screenshot', 'refused by the test'],
    ]);
  });

  it('rejects impossible dimensions', () => {
    expect(() => new FakeComputer({ dimensions: [0, 10] })).toThrow('FakeComputer: dimensions must be two positive integers, got [0, 10]');
  });
});
