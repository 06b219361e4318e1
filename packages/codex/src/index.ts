export { codexTool, type CodexToolOptions, type CodexToolResult } from './codexTool.js';
export type { CodexToolStreamEvent, CodexToolStreamHandler } from './internal/consumeEvents.js';
export type { CodexOutputSchema, CodexOutputSchemaDescriptor } from './internal/outputSchema.js';
export type { CodexToolParametersSchema } from './internal/parameters.js';
export type {
  CodexClient,
  CodexConfigObject,
  CodexConfigValue,
  CodexOptions,
  CodexSdkModule,
  CodexThread,
  CodexUsage,
  CodexUserInput,
  SandboxMode,
  ThreadEvent,
  ThreadItem,
  ThreadOptions,
  TurnOptions,
} from './codexSdkTypes.js';
