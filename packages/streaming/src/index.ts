export { streamingTool, notify } from './streamingTool.js';
export type { StreamingTool, StreamingToolOptions, StreamingToolInput, StreamingToolGenerator } from './streamingTool.js';
export { StreamingToolEmissionError } from './errors.js';
export { toSSE, toSSEResponse, SSEDrainTimeoutError } from './toSSE.js';
export type { SSEOptions, SSEResponseOptions, StreamedRunLike, RawModelEventsPolicy } from './toSSE.js';
export { pipeToNodeResponse, type NodeResponseLike } from './pipeToNodeResponse.js';
export { toEventJSON, runEndJSON, runErrorJSON, type FinishedRunLike, type RunErrorJSONOptions } from './eventToJson.js';
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
  type SSEParserLimits,
  type StreamingToolFrame,
} from './client.js';
export type * from './eventJson.js';
