import type { FunctionCallItem } from '@baton/types';

/**
 * What one function-tool invocation is, as a string two invocations compare equal by when they
 * would do the same thing: the tool, who called it (the model directly, or a program the model
 * ran), and the arguments as JSON values — key order and number spelling aside (`1.0` is `1`), but
 * every number exact (`9007199254740993` is not `9007199254740992`, `-0` is not `0`). Arguments
 * that are not JSON are compared as written.
 *
 * A call id names one invocation for the whole run: an approval decision, and a committed output,
 * hold for that invocation only (see the run loop's call-id screening).
 */
export function invocationFingerprint(toolName: string, call: Pick<FunctionCallItem, 'arguments'> & { caller?: unknown }): string {
  return JSON.stringify([toolName, callerOf(call.caller), canonicalArguments(call.arguments)]);
}

function callerOf(caller: unknown): string {
  if (typeof caller === 'object' && caller !== null && (caller as { type?: unknown }).type === 'program') {
    return `program:${String((caller as { callerId?: unknown }).callerId)}`;
  }
  return 'direct';
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

/** The arguments as canonical JSON text, or `raw:` and the text when it is not JSON. */
function canonicalArguments(text: string): string {
  if (typeof text !== 'string') return `raw:${String(text)}`;
  try {
    return `json:${canonicalJson(JSON.parse(numbersAsTokens(text)))}`;
  } catch {
    return `raw:${text}`;
  }
}

/** Numbers become `{"\u0000": "<exact decimal>"}` before parsing, so no precision is lost to doubles. */
function numbersAsTokens(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const match = NUMBER.exec(text.slice(i, i + 4096));
      if (!match) throw new SyntaxError('not a JSON number');
      out += JSON.stringify({ '\u0000': exactDecimal(match[0]) });
      i += match[0].length;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** `<sign><digits>e<exponent>` with no leading or trailing zeros in the digits (`0` and `-0` kept apart). */
function exactDecimal(number: string): string {
  const [mantissa = '', exponent = '0'] = number.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? mantissa.slice(1) : mantissa).split('.');
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return negative ? '-0' : '0';
  let scale = BigInt(exponent) - BigInt(fraction.length);
  const trimmed = digits.replace(/0+$/, '');
  scale += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${negative ? '-' : ''}${digits}e${scale}`;
}

/** JSON text with every object's keys sorted (by UTF-16 code units, as `<` compares strings). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(node).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) sorted[key] = (node as Record<string, unknown>)[key];
    return sorted;
  });
}
