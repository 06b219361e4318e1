/**
 * Data of your own attached to a tool's output item (`RunToolCallOutputItem.customData`): kept in
 * the run's items and its serialized state, never sent to the model. A JSON object with string keys.
 */
export type ToolOutputCustomData = Record<string, unknown>;

/** Returns the custom data for one tool output (null, undefined or `{}` attach none). */
export type ToolOutputCustomDataExtractor<TContext> = (context: TContext) => ToolOutputCustomData | null | undefined | Promise<ToolOutputCustomData | null | undefined>;
