import type {
  JSONSchema7,
  LanguageModelV2FunctionTool,
  LanguageModelV2Message,
  LanguageModelV2ToolChoice,
  LanguageModelV3Message,
  LanguageModelV4Message,
} from '@ai-sdk/provider';
import type { AgentInputItem, ModelSettings, ModelSettingsToolChoice, SerializedOutputType, SerializedTool } from '@baton/types';
import { itemsToPromptMessages, parseArguments as parseToolArguments } from './internal/messages/itemsToMessages.js';
import type { ModelTarget } from './internal/messages/modelTarget.js';
import { responseFormat, toolChoice, toolDefinition } from './internal/messages/toolDefinition.js';

/*
 * The reference's conversion helpers (`@openai/agents-extensions/ai-sdk`), under its names, for code
 * that builds AI SDK calls itself. They produce the reference's shapes message for message.
 */

/** An AI SDK prompt message of any specification (v2, v3, v4). */
export type AiSdkPromptMessage = LanguageModelV2Message | LanguageModelV3Message | LanguageModelV4Message;

/** What the helpers read of a language model: `provider`, `modelId` and `specificationVersion`. */
export type AiSdkModelIdentity = ModelTarget;

/**
 * Protocol items as AI SDK prompt messages for `model`, as the reference's adapter sends them (one
 * `tool` message per function result, reasoning as its own assistant message unless the model
 * needs it bundled with the next turn, item `providerData` as `providerOptions`). File data takes
 * the model's specification's shape. Items an AI SDK model cannot take are a `UserError`.
 */
export function itemsToLanguageV2Messages(model: AiSdkModelIdentity, items: readonly AgentInputItem[], modelSettings?: ModelSettings): AiSdkPromptMessage[] {
  return itemsToPromptMessages(model, items, modelSettings) as unknown as AiSdkPromptMessage[];
}

/** A function, hosted or computer tool as the AI SDK's tool definition for `model` (see the README's table). */
export function toolToLanguageV2Tool(model: AiSdkModelIdentity, tool: SerializedTool): LanguageModelV2FunctionTool | { type: 'provider' | 'provider-defined'; id: string; name: string; args: Record<string, unknown> } {
  return toolDefinition(model, tool as Record<string, unknown>) as unknown as LanguageModelV2FunctionTool;
}

/** `modelSettings.toolChoice` as the AI SDK's `toolChoice`. */
export function toolChoiceToLanguageV2Format(choice: ModelSettingsToolChoice | undefined): LanguageModelV2ToolChoice | undefined {
  return toolChoice(choice ?? undefined);
}

/** An agent's serialized output type as the AI SDK's `responseFormat`. */
export function getResponseFormat(outputType: SerializedOutputType): { type: 'text' } | { type: 'json'; name: string; schema: JSONSchema7 } {
  return responseFormat(outputType) as { type: 'text' } | { type: 'json'; name: string; schema: JSONSchema7 };
}

/** Tool-call arguments (JSON text) as a value: `{}` when they are empty or not JSON. */
export function parseArguments(args: string | undefined | null): unknown {
  return parseToolArguments(args);
}
