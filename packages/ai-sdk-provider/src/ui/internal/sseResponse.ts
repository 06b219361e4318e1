import type { AiSdkUiMessageChunk } from '../uiMessageChunk.js';

export interface SseResponseOptions {
  readonly headers?: Headers | Record<string, string> | Array<[string, string]>;
  readonly status?: number;
  readonly statusText?: string;
}

/** UI message chunks as the protocol's server-sent events response (shared with the chat handler). */
export function uiMessageStreamResponse(chunks: ReadableStream<AiSdkUiMessageChunk>, options: SseResponseOptions): Response {
  const encoder = new TextEncoder();
  const sse = chunks.pipeThrough(
    new TransformStream<AiSdkUiMessageChunk, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
  const headers = new Headers({
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-vercel-ai-ui-message-stream': 'v1',
    'x-accel-buffering': 'no',
  });
  new Headers(options.headers).forEach((value, key) => headers.set(key, value));
  return new Response(sse, { status: options.status ?? 200, ...(options.statusText === undefined ? {} : { statusText: options.statusText }), headers });
}
