import type { ModelRequest } from '@baton/types';
import type { AiSdkSpecificationVersion } from './languageModel.js';

/** What `transformOutputText` is told about the call whose text it transforms. */
export interface AiSdkOutputTextTransformContext {
  readonly request: ModelRequest;
  /** The language model's provider id, for example `anthropic.messages`. */
  readonly provider: string;
  readonly modelId: string;
  readonly specificationVersion: AiSdkSpecificationVersion;
  /** Whether the response was streamed (the transform then runs on the final `response_done`). */
  readonly stream: boolean;
}

/** Rewrites a response's finished assistant text, for example to strip a Markdown fence around JSON. */
export type AiSdkOutputTextTransform = (text: string, context: AiSdkOutputTextTransformContext) => string | Promise<string>;

/** Options of `aisdk(model, options)` / `new AiSdkModel(model, options)`, the reference's names. */
export interface AiSdkModelOptions {
  /**
   * Normalises the finished assistant text of each response (non-streamed responses, and the
   * `response_done` event of streams; the `output_text_delta` events stay as the model sent them).
   * Text split around reasoning is transformed once, as one text.
   */
  readonly transformOutputText?: AiSdkOutputTextTransform;
}
