import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

/** A Node request as a fetch `Request` (its body read whole, at most 1 MB: chat messages, not uploads). */
export async function toWebRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RequestTooLarge();
    chunks.push(chunk);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', origin), { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }) });
}

export class RequestTooLarge extends Error {
  constructor() {
    super(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
  }
}

/**
 * Sends a fetch `Response` through a Node response with backpressure: the next chunk is read from
 * the body only when the socket has taken the last one (`write` → `drain`), so a slow browser slows
 * whatever produces the body. A browser that goes away cancels the body (for a chat stream: the run).
 */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    if (res.writableFinished) return;
    gone = true;
    void reader.cancel().catch(() => undefined);
  };
  res.on('close', onClose);
  try {
    while (!gone) {
      const next = await reader.read();
      if (next.done) break;
      if (!res.write(next.value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    if (!gone) res.end();
  } catch (error) {
    // The body failed after the headers went out: end the connection so the browser sees it cut.
    if (!gone) res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off('close', onClose);
    reader.releaseLock();
  }
}
