import type { RunContext } from './runContext.js';

/** The tool errors whose text for the model a `toolErrorFormatter` may write. */
export type ToolErrorKind = 'approval_rejected' | 'tool_not_found';

/** What a `toolErrorFormatter` receives (the reference's shape). */
export interface ToolErrorFormatterArgs<TContext = unknown, TKind extends ToolErrorKind = ToolErrorKind> {
  kind: TKind;
  toolType: 'function' | 'computer' | 'shell' | 'apply_patch';
  toolName: string;
  callId: string;
  /** The text the model would receive without the formatter. */
  defaultMessage: string;
  runContext: RunContext<TContext>;
}

/**
 * Writes the text the model receives for a rejected or unknown tool call. Returning `undefined`
 * (or throwing, or returning a non-string, which is logged) keeps the default text.
 */
export type ToolErrorFormatter<TContext = unknown> = (
  args: ToolErrorFormatterArgs<TContext>,
) => Promise<string | undefined> | string | undefined;

export const TOOL_APPROVAL_REJECTION_MESSAGE = 'Tool execution was not approved.';

export const toolNotFoundMessage = (toolName: string): string => `Tool '${toolName}' not found.`;
