import { UserError } from '@baton/types';
import { isRecord, type Json } from '../json.js';

/** Tool choices that name a built-in tool type rather than a function. */
const BUILT_IN_CHOICES = new Set([
  'file_search',
  'web_search',
  'web_search_preview',
  'code_interpreter',
  'image_generation',
  'mcp',
  'programmatic_tool_calling',
  'shell',
  'apply_patch',
]);

const COMPUTER_CHOICES = new Set(['computer', 'computer_use', 'computer_use_preview']);

export type ResponsesToolChoice = 'auto' | 'required' | 'none' | Json;

export interface ToolChoiceContext {
  /** The outgoing tools, with the ones `extra_body` adds. */
  readonly tools: readonly Json[];
  /** The model sent with the request (none when a stored prompt picks it). */
  readonly model: string | undefined;
  /** A stored prompt may supply tools this request does not list. */
  readonly allowPromptSuppliedTools: boolean;
}

/**
 * The request's `tool_choice`, with the reference's rules: `auto` / `required` / `none` as they
 * are; a computer choice as the computer tool's selector (the preview one unless the request
 * targets a GA computer model); a built-in tool type as `{ type }`; anything else a function name
 * (`namespace.name` for namespace members). A choice no outgoing tool answers is a `UserError`
 * naming the tools there are, unless a stored prompt may supply it; so is forcing a deferred tool,
 * the built-in tool search, or Programmatic Tool Calling without its helper tool.
 */
export function responsesToolChoice(choice: string | undefined, context: ToolChoiceContext): ResponsesToolChoice | undefined {
  const converted = choice === undefined ? undefined : convert(choice, context);
  if (converted !== undefined) checkForcedTool(converted, context);
  checkProgrammaticToolCalling(converted, context);
  if (converted === undefined) return undefined;
  if (context.allowPromptSuppliedTools || isAvailable(converted, context.tools)) return converted;
  const names = [...new Set(availableChoices(context.tools))];
  const available = names.length > 0 ? ` Available tools: ${names.join(', ')}.` : ' No tools are available in the outgoing Responses request.';
  if (converted === 'required') {
    throw new UserError(`modelSettings.toolChoice="required" requires at least one available tool in the outgoing Responses request.${available}`);
  }
  if (typeof converted === 'object' && converted.type === 'function') {
    throw new UserError(`modelSettings.toolChoice="${String(converted.name)}" does not match any available tool in the outgoing Responses request.${available}`);
  }
  throw new UserError(`modelSettings.toolChoice="${String((converted as Json).type)}" is unavailable in the outgoing Responses request.${available}`);
}

function convert(choice: string, context: ToolChoiceContext): ResponsesToolChoice {
  if (choice === 'auto' || choice === 'required' || choice === 'none') return choice;
  if (COMPUTER_CHOICES.has(choice)) {
    const hasComputer = context.tools.some((tool) => typeof tool.type === 'string' && COMPUTER_CHOICES.has(tool.type));
    if (hasComputer || context.allowPromptSuppliedTools) {
      const preview = typeof context.model === 'string' ? context.model.startsWith('computer-use-preview') : choice === 'computer_use_preview';
      if (preview) return { type: 'computer_use_preview' };
      return { type: choice === 'computer_use' ? 'computer_use' : 'computer' };
    }
    return choice === 'computer_use_preview' ? { type: 'computer_use_preview' } : { type: 'function', name: choice };
  }
  if (BUILT_IN_CHOICES.has(choice)) return { type: choice };
  return { type: 'function', name: choice };
}

function checkForcedTool(choice: ResponsesToolChoice, context: ToolChoiceContext): void {
  if (typeof choice !== 'object' || choice.type !== 'function') return;
  const name = String(choice.name);
  const match = findFunction(name, context.tools);
  if (match === undefined && context.allowPromptSuppliedTools && name !== 'tool_search') return;
  if (match?.defer_loading === true) {
    throw new UserError(`modelSettings.toolChoice="${name}" cannot force a deferred function tool in Responses. Use "auto" so tool_search can load it.`);
  }
  if (name === 'tool_search' && match === undefined) {
    throw new UserError(
      'modelSettings.toolChoice="tool_search" is only supported for a custom function named "tool_search". Responses does not support forcing the built-in tool_search tool. Use "auto" instead.',
    );
  }
}

function checkProgrammaticToolCalling(choice: ResponsesToolChoice | undefined, context: ToolChoiceContext): void {
  let hasHelper = false;
  let hasToolSearch = false;
  const eligible: Json[] = [];
  const programmaticOnly: Json[] = [];
  const visit = (tool: Json) => {
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      for (const nested of tool.tools) if (isRecord(nested)) visit(nested);
      return;
    }
    if (tool.type === 'programmatic_tool_calling') {
      hasHelper = true;
      return;
    }
    if (tool.type === 'tool_search') hasToolSearch = true;
    const callers = tool.allowed_callers;
    if (!Array.isArray(callers) || !callers.includes('programmatic')) return;
    eligible.push(tool);
    if (!callers.includes('direct')) programmaticOnly.push(tool);
  };
  for (const tool of context.tools) visit(tool);
  const forced = typeof choice === 'object' && choice.type === 'programmatic_tool_calling';
  if (forced && !hasHelper && !context.allowPromptSuppliedTools) {
    throw new UserError('modelSettings.toolChoice="programmatic_tool_calling" requires programmaticToolCallingTool() in the agent tools.');
  }
  if (programmaticOnly.length > 0 && !hasHelper) {
    const names = programmaticOnly.map((tool) => (typeof tool.name === 'string' ? tool.name : String(tool.type)));
    throw new UserError(`Tools restricted to programmatic callers require programmaticToolCallingTool(). Affected tools: ${names.join(', ')}.`);
  }
  if (hasHelper && !hasToolSearch && eligible.length === 0 && !context.allowPromptSuppliedTools) {
    throw new UserError('programmaticToolCallingTool() requires at least one tool whose allowedCallers includes "programmatic".');
  }
}

function isAvailable(choice: ResponsesToolChoice, tools: readonly Json[]): boolean {
  if (choice === 'auto' || choice === 'none') return true;
  if (choice === 'required') return tools.length > 0;
  if (choice.type === 'function') return findFunction(String(choice.name), tools) !== undefined;
  return tools.some((tool) => {
    if (COMPUTER_CHOICES.has(String(choice.type))) return choice.type === 'computer_use_preview' ? tool.type === 'computer_use_preview' : tool.type === 'computer';
    return tool.type === choice.type;
  });
}

/** The function tool a choice names (`namespace.name` reaches into namespaces). */
function findFunction(name: string, tools: readonly Json[], prefix?: string): Json | undefined {
  for (const tool of tools) {
    if (tool.type === 'function' && typeof tool.name === 'string') {
      if (name === (prefix ? `${prefix}.${tool.name}` : tool.name)) return tool;
    } else if (tool.type === 'namespace' && typeof tool.name === 'string' && Array.isArray(tool.tools)) {
      const found = findFunction(name, tool.tools.filter(isRecord), prefix ? `${prefix}.${tool.name}` : tool.name);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function availableChoices(tools: readonly Json[], prefix?: string): string[] {
  return tools.flatMap((tool) => {
    if (tool.type === 'function' && typeof tool.name === 'string') return [prefix ? `${prefix}.${tool.name}` : tool.name];
    if (tool.type === 'namespace' && typeof tool.name === 'string' && Array.isArray(tool.tools)) {
      return availableChoices(tool.tools.filter(isRecord), prefix ? `${prefix}.${tool.name}` : tool.name);
    }
    return [String(tool.type)];
  });
}
