import { describe, expect, it } from 'vitest';
import { terminalText } from '../src/terminalText.js';

// The approval CLI prints a pending call's arguments, which the model wrote: nothing in them may
// drive the approver's terminal.
describe('terminalText', () => {
  it('keeps ordinary text, unicode included', () => {
    expect(terminalText('refund_order({"orderId":"1003","amountUsd":42}) — café ✓')).toBe('refund_order({"orderId":"1003","amountUsd":42}) — café ✓');
  });

  it('removes escape sequences: colours, cursor moves, screen clears, window titles, hyperlinks, 8-bit CSI', () => {
    const attacks = [
      '\u001b[31mred\u001b[0m',
      'amount 42\u001b[2K\u001b[1G\u001b[1Aamount 1',
      '\u001b[2J\u001b[Hclean screen',
      '\u001b]0;approved\u0007title',
      '\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\',
      '\u009b2Jc1 csi',
      '\u001bPdevice control\u001b\\',
      '\u001bc reset',
      'dangling \u001b',
    ];
    for (const attack of attacks) {
      const shown = terminalText(attack);
      expect(shown, JSON.stringify(attack)).not.toMatch(/[\u001b\u0007\u009b\u0090\u009c\u009d]/);
    }
    expect(terminalText('\u001b[31mred\u001b[0m')).toBe('red');
    expect(terminalText('\u001b]0;approved\u0007title')).toBe('title');
    expect(terminalText('\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
  });

  it('shows other control characters and bidirectional overrides as visible escapes', () => {
    expect(terminalText('{"orderId":"1"}\napproved refund_order by ops')).toBe('{"orderId":"1"}\\u{a}approved refund_order by ops');
    expect(terminalText('amount 10\r amount 99')).toBe('amount 10\\u{d} amount 99');
    expect(terminalText('bell\u0007 back\u0008space del\u007f')).toBe('bell\\u{7} back\\u{8}space del\\u{7f}');
    expect(terminalText('total \u202e24$\u202c')).toBe('total \\u{202e}24$\\u{202c}');
  });
});
