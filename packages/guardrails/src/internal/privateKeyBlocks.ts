const BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;
const END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;

/**
 * PEM private key blocks: from a `-----BEGIN … PRIVATE KEY-----` header to the first matching
 * `-----END … PRIVATE KEY-----` after it, or the header alone when no end follows. Both markers are
 * searched for once, moving forward only, so the work is linear in the text (one lazy regular
 * expression from each header to the end of the text is quadratic on text made of headers).
 */
export function* privateKeyBlocks(text: string): Iterable<{ start: number; end: number }> {
  const begin = new RegExp(BEGIN);
  const end = new RegExp(END);
  let pendingEnd: RegExpExecArray | null | undefined; // the first end marker at or after `end.lastIndex`'s search start
  let endSearchedFrom = -1;
  const firstEndFrom = (from: number): RegExpExecArray | null => {
    if (pendingEnd === null && endSearchedFrom <= from) return null; // none anywhere after an earlier point
    if (pendingEnd && pendingEnd.index >= from) return pendingEnd;
    end.lastIndex = from;
    endSearchedFrom = from;
    pendingEnd = end.exec(text);
    return pendingEnd;
  };
  for (let header = begin.exec(text); header; header = begin.exec(text)) {
    const headerEnd = header.index + header[0].length;
    const close = firstEndFrom(headerEnd);
    const blockEnd = close ? close.index + close[0].length : headerEnd;
    yield { start: header.index, end: blockEnd };
    begin.lastIndex = blockEnd;
  }
}
