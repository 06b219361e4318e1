export { codexTool, type CodexToolOptions, type CodexToolResult } from './codexTool.js';
export type { CodexToolStreamEvent, CodexToolStreamHandler } from './internal/consumeEvents.js';
export type { CodexOutputSchema, CodexOutputSchemaDescriptor } from './internal/outputSchema.js';
export type { CodexToolParametersSchema } from './internal/parameters.js';
