import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FilePart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV4CallOptions,
  LanguageModelV4CustomPart,
  LanguageModelV4FilePart,
  LanguageModelV4ReasoningFilePart,
  LanguageModelV4ReasoningPart,
  LanguageModelV4TextPart,
  LanguageModelV4ToolCallPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';

/*
 * The prompt as this package builds it, for either specification. v3 and v4 prompts share their
 * text, reasoning and tool-call parts; they differ in file data (v3: raw bytes, base64 or a URL;
 * v4: a tagged `{ type: 'data' | 'url' | 'reference' }`), in tool-result content parts (v3:
 * `image-data`, `file-url`, ...; v4: `file`), and v4 adds `custom` and `reasoning-file` parts. The
 * builders pick the right shape from the spec version; the call site hands the result to a model
 * of that version.
 */

export type FilePart = LanguageModelV4FilePart | LanguageModelV3FilePart;
export type ToolResultOutput = LanguageModelV4ToolResultOutput | LanguageModelV3ToolResultOutput;
export type ToolResultPart = Omit<LanguageModelV4ToolResultPart, 'output'> & { output: ToolResultOutput };
export type UserPart = LanguageModelV4TextPart | FilePart;
export type AssistantPart =
  | LanguageModelV4TextPart
  | FilePart
  | LanguageModelV4ReasoningPart
  | LanguageModelV4ToolCallPart
  | ToolResultPart
  | LanguageModelV4CustomPart
  | LanguageModelV4ReasoningFilePart;

export type PromptMessage = (
  | { role: 'system'; content: string }
  | { role: 'user'; content: UserPart[] }
  | { role: 'assistant'; content: AssistantPart[] }
  | { role: 'tool'; content: ToolResultPart[] }
) & { providerOptions?: SharedV4ProviderOptions };

/** Call options for either specification (the prompt typed loosely, as above). */
export type CallOptions = (Omit<LanguageModelV4CallOptions, 'prompt'> | Omit<LanguageModelV3CallOptions, 'prompt'>) & { prompt: PromptMessage[] };
