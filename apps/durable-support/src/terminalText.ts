/**
 * Text for the approver's terminal. What the CLI prints comes partly from the model (a tool call's
 * arguments, the names in a pending call) and from the database; a terminal interprets escape
 * sequences in it (clear the screen, move the cursor, rewrite a line, set the window title, make a
 * hyperlink), so a model could make "refund $10" read as anything. Escape sequences are removed;
 * every other control character (newlines too: a line of its own could pass for the CLI's output)
 * and every bidirectional override is shown as a visible `\u{...}` escape.
 */

// ESC or the 8-bit CSI/OSC/DCS introducers, with what follows them: CSI parameters and final byte,
// or an OSC/DCS/SOS/PM/APC string up to its terminator (BEL or ST), or one more character.
const ESCAPE_SEQUENCE = new RegExp(
  [
    '(?:\\u001b\\[|\\u009b)[0-?]*[ -/]*[@-~]?',
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)?',
    '\\u001b[ -/]*[0-~]?',
  ].join('|'),
  'gu',
);

// C0 and C1 controls, DEL, line and paragraph separators, bidirectional embeddings, overrides and isolates.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/gu;

export function terminalText(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}
