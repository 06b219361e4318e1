/** What a text stream response is made from: a stream of text, or a streamed run result (`toTextStream()`). */
export type AiSdkTextStreamSource = ReadableStream<string> | { toTextStream: () => ReadableStream<string> };

export type AiSdkTextStreamHeaders = Headers | Record<string, string> | Array<[string, string]>;

export interface AiSdkTextStreamResponseOptions {
  readonly headers?: AiSdkTextStreamHeaders;
  readonly status?: number;
  readonly statusText?: string;
}

/**
 * A run's text as a plain streaming `Response`, the AI SDK UI's text stream protocol (`useChat`
 * with `TextStreamChatTransport`, or `useCompletion`): UTF-8 text as it arrives,
 * `content-type: text/plain; charset=utf-8` and `cache-control: no-cache` unless `options.headers`
 * set them.
 */
export function createAiSdkTextStreamResponse(source: AiSdkTextStreamSource, options: AiSdkTextStreamResponseOptions = {}): Response {
  const text = typeof (source as { toTextStream?: unknown }).toTextStream === 'function' ? (source as { toTextStream: () => ReadableStream<string> }).toTextStream() : (source as ReadableStream<string>);
  const encoder = new TextEncoder();
  const body = text.pipeThrough(
    new TransformStream<string, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(chunk));
      },
    }),
  );
  const headers = new Headers(options.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
  return new Response(body, { status: options.status ?? 200, ...(options.statusText === undefined ? {} : { statusText: options.statusText }), headers });
}
