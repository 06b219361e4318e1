import {
  UserError,
  type FunctionTool,
  type HandoffContract,
  type InputGuardrail,
  type Model,
  type ModelSettings,
  type OutputGuardrail,
  type RunContextContract,
  type SerializedOutputType,
} from '@baton/types';
import { compileSchema, isStandardSchema, type CompiledSchema, type InferSchemaOutput, type StandardSchemaLike } from './internal/schema.js';
import { requireArray, requireFunction, typeName } from './internal/validate.js';
import { Handoff, isHandoff } from './handoff.js';
import { makeAgentTool, type AgentAsToolOptions, type AgentTool } from './internal/agentTool.js';
import type { RunToolCallOutputItem } from '@baton/types';

export type AgentOutputType = 'text' | StandardSchemaLike;

/** The type of `finalOutput` for an agent's output type. */
export type ResolvedAgentOutput<TOutput extends AgentOutputType> = TOutput extends 'text' ? string : InferSchemaOutput<TOutput>;

export interface FunctionToolResult {
  tool: FunctionTool<any>;
  output: unknown;
  runItem: RunToolCallOutputItem;
}

export type ToolsToFinalOutputResult = { isFinalOutput: false } | { isFinalOutput: true; finalOutput: unknown };

export type ToolToFinalOutputFunction<TContext = unknown> = (
  context: RunContextContract<TContext>,
  toolResults: FunctionToolResult[],
) => ToolsToFinalOutputResult | Promise<ToolsToFinalOutputResult>;

/** What happens after tools run: ask the model again (default), or stop with a tool's output. */
export type ToolUseBehavior<TContext = unknown> =
  | 'run_llm_again'
  | 'stop_on_first_tool'
  | { stopAtToolNames: string[] }
  | ToolToFinalOutputFunction<TContext>;

export type AgentInstructions<TContext> = string | ((runContext: RunContextContract<TContext>, agent: Agent<TContext, any>) => string | Promise<string>);

export interface AgentOptions<TContext = unknown, TOutput extends AgentOutputType = 'text'> {
  name: string;
  instructions?: AgentInstructions<TContext>;
  handoffDescription?: string;
  handoffs?: Array<Agent<any, any> | HandoffContract<any>>;
  /** A model instance, or a name resolved through the runner's model provider. */
  model?: string | Model;
  modelSettings?: ModelSettings;
  tools?: FunctionTool<any>[];
  inputGuardrails?: InputGuardrail<any>[];
  outputGuardrails?: OutputGuardrail<any, any>[];
  /** `'text'` (default) or a zod / Standard Schema object parsed into `finalOutput`. */
  outputType?: TOutput;
  toolUseBehavior?: ToolUseBehavior<TContext>;
  /** Reset `toolChoice` after a tool call so the model is not forced into a loop. Defaults to `true`. */
  resetToolChoice?: boolean;
}

/**
 * An agent: instructions, a model, tools, handoffs and guardrails. Configuration is validated at
 * construction, so mistakes surface as `UserError` naming the field before anything runs.
 */
export class Agent<TContext = unknown, TOutput extends AgentOutputType = 'text'> {
  readonly name: string;
  readonly instructions: AgentInstructions<TContext>;
  readonly handoffDescription: string;
  #handoffs: Array<Agent<any, any> | HandoffContract<any>> = [];
  readonly model: string | Model;
  readonly modelSettings: ModelSettings;
  readonly tools: FunctionTool<any>[];
  readonly inputGuardrails: InputGuardrail<any>[];
  readonly outputGuardrails: OutputGuardrail<any, any>[];
  readonly outputType: TOutput;
  readonly toolUseBehavior: ToolUseBehavior<TContext>;
  readonly resetToolChoice: boolean;
  readonly #options: AgentOptions<TContext, TOutput>;
  readonly #outputSchema: CompiledSchema | undefined;

  constructor(options: AgentOptions<TContext, TOutput>) {
    if (typeof options !== 'object' || options === null) throw new UserError('Agent: expected an options object.');
    if (typeof options.name !== 'string' || options.name.trim() === '') throw new UserError('Agent: `name` must be a non-empty string.');
    const label = `Agent "${options.name}"`;
    this.#options = options;
    this.name = options.name;
    this.instructions = options.instructions ?? '';
    if (typeof this.instructions !== 'string' && typeof this.instructions !== 'function') {
      throw new UserError(`${label}: \`instructions\` must be a string or a function, got ${typeName(this.instructions)}.`);
    }
    this.handoffDescription = options.handoffDescription ?? '';
    if (typeof this.handoffDescription !== 'string') throw new UserError(`${label}: \`handoffDescription\` must be a string.`);
    this.model = options.model ?? '';
    if (typeof this.model !== 'string' && (typeof this.model !== 'object' || this.model === null || typeof this.model.getResponse !== 'function')) {
      throw new UserError(`${label}: \`model\` must be a model name or an object with getResponse() and getStreamedResponse().`);
    }
    this.modelSettings = options.modelSettings ?? {};
    this.tools = requireArray(options.tools, `${label}: \`tools\``);
    validateTools(this.tools, label);
    this.handoffs = options.handoffs ?? [];
    this.inputGuardrails = requireArray(options.inputGuardrails, `${label}: \`inputGuardrails\``);
    this.outputGuardrails = requireArray(options.outputGuardrails, `${label}: \`outputGuardrails\``);
    validateGuardrails(this.inputGuardrails, `${label}: \`inputGuardrails\``);
    validateGuardrails(this.outputGuardrails, `${label}: \`outputGuardrails\``);
    this.outputType = (options.outputType ?? 'text') as TOutput;
    if (this.outputType !== 'text' && !isStandardSchema(this.outputType)) {
      throw new UserError(`${label}: \`outputType\` must be 'text' or a zod / Standard Schema object.`);
    }
    this.#outputSchema =
      this.outputType === 'text' ? undefined : compileSchema(this.outputType, { strict: true, owner: `${label} outputType` });
    this.toolUseBehavior = options.toolUseBehavior ?? 'run_llm_again';
    validateToolUseBehavior(this.toolUseBehavior, label);
    this.resetToolChoice = options.resetToolChoice ?? true;
  }

  /** Agents (or handoffs) this agent may transfer to. Assignable, as in the reference, for cycles. */
  get handoffs(): Array<Agent<any, any> | HandoffContract<any>> {
    return this.#handoffs;
  }

  set handoffs(handoffs: Array<Agent<any, any> | HandoffContract<any>>) {
    const label = `Agent "${this.name}"`;
    requireArray(handoffs, `${label}: \`handoffs\``).forEach((h, i) => {
      if (!(h instanceof Agent) && !isHandoff(h)) throw new UserError(`${label}: \`handoffs[${i}]\` must be an Agent or a handoff.`);
    });
    this.#handoffs = handoffs;
  }

  /** A copy with some options replaced. */
  clone<TOut extends AgentOutputType = TOutput>(overrides: Partial<AgentOptions<TContext, TOut>> = {}): Agent<TContext, TOut> {
    return new Agent<TContext, TOut>({ ...(this.#options as unknown as AgentOptions<TContext, TOut>), ...overrides });
  }

  /** The system prompt for this turn. */
  async getSystemPrompt(runContext: RunContextContract<TContext>): Promise<string | undefined> {
    if (typeof this.instructions === 'function') return this.instructions(runContext, this);
    return this.instructions === '' ? undefined : this.instructions;
  }

  /** Handoffs offered to the model this turn (bare agents wrapped with the default handoff). */
  async getEnabledHandoffs(runContext: RunContextContract<TContext>): Promise<HandoffContract<any>[]> {
    const all = this.handoffs.map((h) => (h instanceof Agent ? defaultHandoff(h) : h));
    const enabled = await Promise.all(all.map((h) => h.isEnabled({ runContext, agent: this as never })));
    return all.filter((_, i) => Boolean(enabled[i]));
  }

  /** Tools offered to the model this turn. */
  async getEnabledTools(runContext: RunContextContract<TContext>): Promise<FunctionTool<any>[]> {
    const enabled = await Promise.all(this.tools.map((t) => t.isEnabled(runContext, this as never)));
    return this.tools.filter((_, i) => enabled[i]);
  }

  /** How the final output is requested from the model. */
  getSerializedOutputType(): SerializedOutputType {
    if (!this.#outputSchema) return 'text';
    return { type: 'json_schema', name: 'final_output', strict: true, schema: this.#outputSchema.jsonSchema };
  }

  /** Parses the model's final text into this agent's output type; throws a message on failure. */
  async parseFinalOutput(text: string): Promise<{ ok: true; value: ResolvedAgentOutput<TOutput> } | { ok: false; message: string }> {
    if (!this.#outputSchema) return { ok: true, value: text as ResolvedAgentOutput<TOutput> };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { ok: false, message: `the final output is not valid JSON (${(error as Error).message})` };
    }
    const result = await this.#outputSchema.validate(json);
    return result.ok
      ? { ok: true, value: result.value as ResolvedAgentOutput<TOutput> }
      : { ok: false, message: `the final output does not match the output type: ${result.message}` };
  }

  /** Runs this agent as a tool of another agent (see `AgentAsToolOptions`). */
  asTool(options: AgentAsToolOptions<TContext> = {}): AgentTool<TContext> {
    return makeAgentTool(this, options);
  }

  /** Agents appear in JSON by name. */
  toJSON(): { name: string } {
    return { name: this.name };
  }
}

const defaultHandoffs = new WeakMap<Agent<any, any>, Handoff<any>>();

/** The handoff used for a bare agent listed in `handoffs`. */
export function defaultHandoff(agent: Agent<any, any>): Handoff<any> {
  let handoff = defaultHandoffs.get(agent);
  if (!handoff) {
    handoff = new Handoff(agent as never, () => agent as never);
    defaultHandoffs.set(agent, handoff);
  }
  return handoff;
}

function validateTools(tools: FunctionTool<any>[], label: string): void {
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    if (typeof t !== 'object' || t === null || typeof t.name !== 'string' || typeof t.invoke !== 'function') {
      throw new UserError(`${label}: \`tools[${i}]\` is not a tool (use tool() or agent.asTool()).`);
    }
    if (seen.has(t.name)) throw new UserError(`${label}: duplicate tool name "${t.name}" in \`tools\`.`);
    seen.add(t.name);
  });
}

function validateGuardrails(list: Array<{ name?: unknown; execute?: unknown; runInParallel?: unknown; timeoutMs?: unknown }>, field: string): void {
  list.forEach((g, i) => {
    if (typeof g !== 'object' || g === null || typeof g.name !== 'string') throw new UserError(`${field}[${i}] must have a string \`name\`.`);
    const label = `${field}[${i}] ("${g.name}")`;
    requireFunction(g.execute, `${label} \`execute\``);
    if (g.runInParallel !== undefined && typeof g.runInParallel !== 'boolean') throw new UserError(`${label} \`runInParallel\` must be a boolean.`);
    if (g.timeoutMs !== undefined && !(typeof g.timeoutMs === 'number' && g.timeoutMs > 0)) {
      throw new UserError(`${label} \`timeoutMs\` must be a positive number.`);
    }
  });
}

function validateToolUseBehavior(behavior: unknown, label: string): void {
  if (behavior === 'run_llm_again' || behavior === 'stop_on_first_tool' || typeof behavior === 'function') return;
  if (
    typeof behavior === 'object' &&
    behavior !== null &&
    Array.isArray((behavior as { stopAtToolNames?: unknown }).stopAtToolNames) &&
    (behavior as { stopAtToolNames: unknown[] }).stopAtToolNames.every((n) => typeof n === 'string')
  ) {
    return;
  }
  throw new UserError(
    `${label}: \`toolUseBehavior\` must be 'run_llm_again', 'stop_on_first_tool', { stopAtToolNames: string[] } or a function.`,
  );
}
