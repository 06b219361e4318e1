export { streamingTool, notify } from './streamingTool.js';
export type { StreamingTool, StreamingToolOptions, StreamingToolInput, StreamingToolGenerator } from './streamingTool.js';
export { StreamingToolEmissionError } from './errors.js';
export { toSSE, toSSEResponse } from './toSSE.js';
export type { SSEOptions, SSEResponseOptions, StreamedRunLike } from './toSSE.js';
export { pipeToNodeResponse, type NodeResponseLike } from './pipeToNodeResponse.js';
export { toEventJSON, runEndJSON, runErrorJSON, type FinishedRunLike } from './eventToJson.js';
export { SSE_HEADERS } from './internal/sseFrame.js';
export {
  readRunEvents,
  decodeSSE,
  parseRunEvent,
  unwrapStreamingToolContext,
  RunEventStreamError,
  SSEParser,
  type ReadRunEventsOptions,
  type RunEventStreamErrorReason,
  type SSEMessage,
  type StreamingToolFrame,
} from './client.js';
export type * from './eventJson.js';
