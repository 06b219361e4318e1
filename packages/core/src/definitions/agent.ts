import {
  ModelBehaviorError,
  UserError,
  getDefaultModelSettings,
  isGpt5OrNewerReasoningModel,
  type FunctionTool,
  type HandoffContract,
  type InputGuardrail,
  type MCPServer,
  type HostedTool,
  type Tool,
  type Model,
  type ModelPrompt,
  type ModelSettings,
  type OutputGuardrail,
  type RunContextContract,
  type SerializedOutputType,
} from '@baton/types';
import { isStandardSchema, isZodSchema, type InferSchemaOutput, type StandardSchemaLike } from './internal/schema.js';
import { resolveOutputType, resolvedAtFirstRequest, type ResolvedOutputType } from './internal/resolvedOutputType.js';
import type { JsonSchemaDefinition } from './outputType.js';
import { requireArray, requireFunction, typeName } from './internal/validate.js';
import { Handoff, isHandoff } from './handoff.js';
import { makeAgentTool, type AgentAsToolOptions, type AgentTool } from './agentTool.js';
import type { RunToolCallOutputItem } from '@baton/types';
import type { RunContext } from './runContext.js';
import { AgentHooks } from './lifecycle.js';
import { getAllMcpTools, type MCPConfig } from './mcp/mcpTools.js';
import { isLocalTool, localToolProblem } from './internal/localTools.js';
import { fixedlyEnabledTools } from './internal/fixedAnswer.js';

export type AgentOutputType = 'text' | StandardSchemaLike | JsonSchemaDefinition;

/**
 * The type of `finalOutput` for an agent's output type (a union of output types gives a union; an
 * agent typed \`Agent<C, any>\` gives \`any\`, as in the reference).
 */
export type ResolvedAgentOutput<TOutput extends AgentOutputType> = unknown extends TOutput
  ? any
  : TOutput extends 'text'
    ? string
    : TOutput extends StandardSchemaLike
      ? InferSchemaOutput<TOutput>
      : TOutput extends JsonSchemaDefinition
        ? unknown
        : never;

type OutputTypeOf<T> = T extends Agent<any, infer O> ? O : T extends { readonly agent: Agent<any, infer O> } ? O : never;

/** The output types of a list of handoff targets (agents, or handoffs to agents), as a union. */
export type HandoffsOutputUnion<Handoffs extends readonly unknown[]> = OutputTypeOf<Handoffs[number]>;

/**
 * One tool call's result, as a custom `toolUseBehavior` receives it (the reference's shape). Calls
 * that pause for approval never reach it: the run pauses first.
 */
export interface FunctionToolResult<TContext = unknown> {
  type: 'function_output';
  tool: FunctionTool<TContext>;
  output: unknown;
  runItem: RunToolCallOutputItem;
}

/** What a custom `toolUseBehavior` decides (the reference's shape; `isInterrupted` is accepted and means "not final"). */
export type ToolsToFinalOutputResult =
  | { isFinalOutput: false; isInterrupted?: undefined }
  | { isFinalOutput: false; isInterrupted: true; interruptions?: unknown[] }
  | { isFinalOutput: true; isInterrupted?: undefined; finalOutput: unknown };

export type ToolToFinalOutputFunction<TContext = unknown> = (
  context: RunContext<TContext>,
  toolResults: FunctionToolResult<any>[],
) => ToolsToFinalOutputResult | Promise<ToolsToFinalOutputResult>;

/** What happens after tools run: ask the model again (default), or stop with a tool's output. */
export type ToolUseBehavior<TContext = unknown> =
  | 'run_llm_again'
  | 'stop_on_first_tool'
  | { stopAtToolNames: string[] }
  | ToolToFinalOutputFunction<TContext>;

export type AgentInstructions<TContext> = string | ((runContext: RunContext<TContext>, agent: Agent<TContext, any>) => string | Promise<string>);

/** A stored prompt template (Responses API: id, version, variables), or a function choosing one each turn. */
export type AgentPrompt<TContext> = ModelPrompt | ((runContext: RunContext<TContext>, agent: Agent<TContext, any>) => ModelPrompt | Promise<ModelPrompt>);

export interface AgentOptions<TContext = unknown, TOutput extends AgentOutputType = 'text'> {
  name: string;
  instructions?: AgentInstructions<TContext>;
  /**
   * A prompt template stored on the platform, sent with every request of this agent. A model set
   * on the agent or the run overrides the prompt's own model; the agent's tools replace the
   * prompt's when \`tools\` is given.
   */
  prompt?: AgentPrompt<TContext>;
  handoffDescription?: string;
  handoffs?: Array<Agent<any, any> | HandoffContract<any>>;
  /** A model instance, or a name resolved through the runner's model provider. */
  model?: string | Model;
  modelSettings?: ModelSettings;
  /** Typed with the agent's context: a tool written for another context does not fit. Hosted tools (web search, ...) too. */
  tools?: Tool<TContext>[];
  inputGuardrails?: InputGuardrail<TContext>[];
  outputGuardrails?: OutputGuardrail<any, TContext>[];
  /** `'text'` (default), a zod / Standard Schema object, or a JSON schema definition, parsed into `finalOutput`. */
  outputType?: TOutput;
  toolUseBehavior?: ToolUseBehavior<TContext>;
  /** Reset `toolChoice` after a tool call so the model is not forced into a loop. Defaults to `true`. */
  resetToolChoice?: boolean;
  /** MCP servers whose tools the agent offers (before its own tools), listed each turn or from their cache. */
  mcpServers?: MCPServer[];
  /** How the servers' tools are offered: strict schemas, the error function for servers that set none. */
  mcpConfig?: MCPConfig;
}

/**
 * An agent: instructions, a model, tools, handoffs and guardrails. Configuration is validated at
 * construction, so mistakes surface as `UserError` naming the field before anything runs.
 */
export class Agent<TContext = unknown, TOutput extends AgentOutputType = 'text'> extends AgentHooks<TContext, TOutput> {
  readonly name: string;
  readonly instructions: AgentInstructions<TContext>;
  readonly prompt: AgentPrompt<TContext> | undefined;
  readonly handoffDescription: string;
  #handoffs: Array<Agent<any, any> | HandoffContract<any>> = [];
  readonly model: string | Model;
  readonly modelSettings: ModelSettings;
  #tools: Tool<any>[] = [];
  #inputGuardrails: InputGuardrail<any>[] = [];
  #outputGuardrails: OutputGuardrail<any, any>[] = [];
  #outputType!: TOutput;
  readonly toolUseBehavior: ToolUseBehavior<TContext>;
  readonly resetToolChoice: boolean;
  readonly mcpServers: MCPServer[];
  readonly mcpConfig: MCPConfig;
  readonly #options: AgentOptions<TContext, TOutput>;
  /** The output type checked and compiled, made at its first use (see \`outputType\`). */
  #resolvedOutput: ResolvedOutputType | undefined;
  readonly #explicitModelSettings: boolean;

  /**
   * Creates an agent whose `finalOutput` type is the union of its own output type and its handoff
   * targets' (the reference's `Agent.create`).
   */
  static create<TOutput extends AgentOutputType = 'text', const Handoffs extends readonly (Agent<any, any> | HandoffContract<any>)[] = []>(
    options: Omit<AgentOptions<unknown, TOutput>, 'handoffs'> & { handoffs?: Handoffs },
  ): Agent<unknown, TOutput | HandoffsOutputUnion<Handoffs>> {
    return new Agent<unknown, any>({ ...options, handoffs: options.handoffs ? [...options.handoffs] : [] });
  }

  constructor(options: AgentOptions<TContext, TOutput>) {
    super();
    if (typeof options !== 'object' || options === null) throw new UserError('Agent: expected an options object.');
    if (typeof options.name !== 'string' || options.name.trim() === '') throw new UserError('Agent must have a name. (`name` must be a non-empty string.)');
    const label = `Agent "${options.name}"`;
    this.#options = options;
    this.name = options.name;
    this.instructions = options.instructions ?? '';
    if (typeof this.instructions !== 'string' && typeof this.instructions !== 'function') {
      throw new UserError(`${label}: \`instructions\` must be a string or a function, got ${typeName(this.instructions)}.`);
    }
    this.prompt = options.prompt;
    if (this.prompt !== undefined && typeof this.prompt !== 'function' && (typeof this.prompt !== 'object' || this.prompt === null || typeof this.prompt.promptId !== 'string')) {
      throw new UserError(`${label}: \`prompt\` must be { promptId, version?, variables? } or a function returning one, got ${typeName(this.prompt)}.`);
    }
    this.handoffDescription = options.handoffDescription ?? '';
    if (typeof this.handoffDescription !== 'string') throw new UserError(`${label}: \`handoffDescription\` must be a string.`);
    this.model = options.model ?? '';
    if (typeof this.model !== 'string' && (typeof this.model !== 'object' || this.model === null || typeof this.model.getResponse !== 'function')) {
      throw new UserError(`${label}: \`model\` must be a model name or an object with getResponse() and getStreamedResponse().`);
    }
    this.modelSettings = options.modelSettings ?? implicitModelSettings(options.model);
    this.#explicitModelSettings = options.modelSettings !== undefined;
    this.tools = options.tools as Tool<any>[];
    this.handoffs = options.handoffs ?? [];
    this.inputGuardrails = options.inputGuardrails as InputGuardrail<any>[];
    this.outputGuardrails = options.outputGuardrails as OutputGuardrail<any, any>[];
    this.#outputType = (options.outputType ?? 'text') as TOutput;
    if (!resolvedAtFirstRequest(this.#outputType)) this.#output();
    this.toolUseBehavior = options.toolUseBehavior ?? 'run_llm_again';
    validateToolUseBehavior(this.toolUseBehavior, label);
    this.resetToolChoice = options.resetToolChoice ?? true;
    this.mcpServers = requireArray(options.mcpServers, `${label}: \`mcpServers\``);
    validateMcpServers(this.mcpServers, label);
    this.mcpConfig = options.mcpConfig ?? {};
  }

  /** Whether the agent was given its model settings (else they are its model's defaults). */
  hasExplicitModelSettings(): boolean {
    return this.#explicitModelSettings;
  }

  /**
   * The name of the output schema, as the reference reports it: \`'text'\`, \`'ZodOutput'\` for a zod
   * object, \`'StandardSchemaOutput'\` for another Standard Schema, or a JSON schema definition's \`name\`.
   */
  get outputSchemaName(): string {
    const output = this.outputType as unknown;
    if (output === 'text') return 'text';
    if (isStandardSchema(output)) return isZodSchema(output) ? 'ZodOutput' : 'StandardSchemaOutput';
    return (output as JsonSchemaDefinition).name;
  }

  /**
   * What the agent's final output is: \`'text'\`, a zod / Standard Schema object or a JSON schema
   * definition. Assignable, as on the reference: an assigned output type is checked when a run next
   * asks the model with it (a \`UserError\` before the model is called), as is a zod object given
   * at construction (so one whose fields have no JSON form, \`z.custom()\`, fails that run's turn,
   * not the agent's construction). Other output types are checked at construction.
   */
  get outputType(): TOutput {
    return this.#outputType;
  }

  set outputType(outputType: TOutput) {
    this.#outputType = outputType;
    this.#resolvedOutput = undefined;
  }

  /** The output type checked and compiled, once per assigned output type. */
  #output(): ResolvedOutputType {
    return (this.#resolvedOutput ??= resolveOutputType(this.#outputType, `Agent "${this.name}"`));
  }

  // Tools and guardrails are assignable after construction, as in the reference (programs add a
  // guardrail or a tool to an agent built elsewhere); each assignment is checked like the option.

  /** The agent's tools. Assignable; checked like the \`tools\` option. */
  get tools(): Tool<any>[] {
    return this.#tools;
  }

  set tools(tools: Tool<any>[]) {
    const label = `Agent "${this.name}"`;
    const checked = requireArray(tools, `${label}: \`tools\``);
    validateTools(checked, label);
    this.#tools = checked;
  }

  /** Guardrails on the run's input (first agent only). Assignable; checked like the option. */
  get inputGuardrails(): InputGuardrail<any>[] {
    return this.#inputGuardrails;
  }

  set inputGuardrails(guardrails: InputGuardrail<any>[]) {
    const checked = requireArray(guardrails, `Agent "${this.name}": \`inputGuardrails\``);
    validateGuardrails(checked, `Agent "${this.name}": \`inputGuardrails\``);
    this.#inputGuardrails = checked;
  }

  /** Guardrails on the agent's final output. Assignable; checked like the option. */
  get outputGuardrails(): OutputGuardrail<any, any>[] {
    return this.#outputGuardrails;
  }

  set outputGuardrails(guardrails: OutputGuardrail<any, any>[]) {
    const checked = requireArray(guardrails, `Agent "${this.name}": \`outputGuardrails\``);
    validateGuardrails(checked, `Agent "${this.name}": \`outputGuardrails\``);
    this.#outputGuardrails = checked;
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

  /** A copy with some options replaced (tools, guardrails and handoffs as they are now, assignments included). */
  clone<TOut extends AgentOutputType = TOutput>(overrides: Partial<AgentOptions<TContext, TOut>> = {}): Agent<TContext, TOut> {
    const current = { tools: this.tools, inputGuardrails: this.inputGuardrails, outputGuardrails: this.outputGuardrails, handoffs: this.handoffs };
    return new Agent<TContext, TOut>({ ...(this.#options as unknown as AgentOptions<TContext, TOut>), ...current, ...overrides });
  }

  /** Whether \`tools\` was given (even empty): a prompt template's own tools are then not used. */
  hasExplicitToolConfig(): boolean {
    return this.#options.tools !== undefined;
  }

  /** The prompt template for this turn, if the agent has one. */
  async getPrompt(runContext: RunContextContract<TContext>): Promise<ModelPrompt | undefined> {
    if (typeof this.prompt === 'function') return this.prompt(runContext as RunContext<TContext>, this);
    return this.prompt;
  }

  /** The system prompt for this turn. */
  async getSystemPrompt(runContext: RunContextContract<TContext>): Promise<string | undefined> {
    if (typeof this.instructions === 'function') return this.instructions(runContext as RunContext<TContext>, this);
    return this.instructions === '' ? undefined : this.instructions;
  }

  /** Handoffs offered to the model this turn (bare agents wrapped with the default handoff). */
  async getEnabledHandoffs(runContext: RunContextContract<TContext>): Promise<HandoffContract<any>[]> {
    const all = this.handoffs.map((h) => (h instanceof Agent ? defaultHandoff(h) : h));
    const enabled = await Promise.all(all.map((h) => h.isEnabled({ runContext, agent: this })));
    return all.filter((_, i) => Boolean(enabled[i]));
  }

  /** Function tools offered to the model this turn. */
  async getEnabledTools(runContext: RunContextContract<TContext>): Promise<FunctionTool<any>[]> {
    // Most tools are enabled or disabled once and for all: their answer is read, not awaited.
    const fixed = fixedlyEnabledTools(this.tools);
    if (fixed !== undefined) return fixed;
    const functions = this.tools.filter(isFunctionTool);
    const enabled = await Promise.all(functions.map((t) => t.isEnabled(runContext, this)));
    return functions.filter((_, i) => enabled[i]);
  }

  /** Tools the provider runs itself (web search, a remote MCP server, ...): always offered. */
  getHostedTools(): HostedTool[] {
    return this.tools.filter((t): t is HostedTool => t.type === 'hosted_tool');
  }

  /** How the final output is requested from the model. */
  getSerializedOutputType(): SerializedOutputType {
    const serialized = this.#output().serialized;
    // A copy: the request it goes into is the caller's to change.
    return serialized === 'text' ? serialized : { ...serialized };
  }

  /** The tools of this agent's MCP servers (connected by you, as on the reference), after their filters. */
  async getMcpTools(runContext: RunContextContract<TContext>): Promise<FunctionTool<any>[]> {
    if (this.mcpServers.length === 0) return [];
    const reservedToolNames = this.mcpConfig.includeServerInToolNames === true ? await this.getMcpToolReservedNames(runContext) : undefined;
    return getAllMcpTools({ mcpServers: this.mcpServers, runContext, agent: this, ...this.mcpConfig, ...(reservedToolNames ? { reservedToolNames } : {}) });
  }

  /** Names server-prefixed MCP tool names step around: this agent's function tools and enabled handoffs. */
  async getMcpToolReservedNames(runContext: RunContextContract<TContext>): Promise<Set<string>> {
    const names = new Set(this.tools.filter(isFunctionTool).map((t) => t.name));
    for (const handoff of await this.getEnabledHandoffs(runContext)) names.add(handoff.toolName);
    return names;
  }

  /** Every tool offered to the model this turn: the MCP servers' tools, then the agent's own (as listed). */
  async getAllTools(runContext: RunContextContract<TContext>): Promise<Tool<any>[]> {
    const enabled = new Set<Tool<any>>(await this.getEnabledTools(runContext));
    return [...(await this.getMcpTools(runContext)), ...this.tools.filter((t) => t.type !== 'function' || enabled.has(t))];
  }

  /**
   * Parses the model's final text into this agent's output type, synchronously (the reference's
   * `processFinalOutput`): throws on JSON that does not parse or does not match the schema, and
   * for a schema whose validation is asynchronous (use `parseFinalOutput` then).
   */
  processFinalOutput(text: string): ResolvedAgentOutput<TOutput> {
    if (this.outputType === 'text') return text as ResolvedAgentOutput<TOutput>;
    const json: unknown = JSON.parse(text);
    if (!isStandardSchema(this.outputType)) return json as ResolvedAgentOutput<TOutput>;
    const result = this.outputType['~standard'].validate(json);
    if (result instanceof Promise) {
      throw new UserError(`Agent "${this.name}": Standard Schema validation returned a Promise, which processFinalOutput() cannot wait for; use parseFinalOutput() (runs accept asynchronous output validation).`);
    }
    if (result.issues) throw new ModelBehaviorError(`Agent "${this.name}": the final output does not match the output type: ${result.issues.map((i) => i.message).join('; ')}`);
    return result.value as ResolvedAgentOutput<TOutput>;
  }

  /** Parses the model's final text into this agent's output type; throws a message on failure. */
  async parseFinalOutput(text: string): Promise<{ ok: true; value: ResolvedAgentOutput<TOutput> } | { ok: false; message: string }> {
    if (this.outputType === 'text') return { ok: true, value: text as ResolvedAgentOutput<TOutput> };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { ok: false, message: `the final output is not valid JSON (${(error as Error).message})` };
    }
    const compiled = this.#output().schema;
    if (!compiled) return { ok: true, value: json as ResolvedAgentOutput<TOutput> };
    const result = await compiled.validate(json);
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
    handoff = new Handoff(agent, () => agent);
    defaultHandoffs.set(agent, handoff);
  }
  return handoff;
}

function validateMcpServers(servers: MCPServer[], label: string): void {
  servers.forEach((server, i) => {
    if (typeof server !== 'object' || server === null || typeof server.listTools !== 'function' || typeof server.callTool !== 'function') {
      throw new UserError(`${label}: \`mcpServers[${i}]\` is not an MCP server (an object with listTools() and callTool(), as MCPServerStdio).`);
    }
  });
}

function isFunctionTool(tool: Tool<any>): tool is FunctionTool<any> {
  return tool.type === 'function';
}

function validateTools(tools: Tool<any>[], label: string): void {
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    const hosted = typeof t === 'object' && t !== null && t.type === 'hosted_tool';
    const local = typeof t === 'object' && t !== null && isLocalTool(t);
    if (typeof t !== 'object' || t === null || typeof t.name !== 'string' || (!hosted && !local && typeof (t as FunctionTool<any>).invoke !== 'function')) {
      throw new UserError(`${label}: \`tools[${i}]\` is not a tool (use tool(), agent.asTool(), shellTool() or a hosted tool such as webSearchTool()).`);
    }
    const problem = local ? localToolProblem(t) : undefined;
    if (problem !== undefined) throw new UserError(`${label}: \`tools[${i}]\` ("${t.name}"): ${problem}.`);
    // Tools of a namespace (toolNamespace()) are called as `namespace.name`: a name is taken once per namespace.
    const namespace = (t as FunctionTool<any>).namespace;
    // Remote MCP servers (hostedMcpTool()) are told apart by their server label, not their shared tool name.
    const server = hosted && t.name === 'hosted_mcp' ? (t as { providerData?: { server_label?: unknown } }).providerData?.server_label : undefined;
    if (typeof server === 'string') {
      const serverKey = JSON.stringify(['hosted_mcp', server]);
      if (seen.has(serverKey)) throw new UserError(`${label}: two hostedMcpTool()s for the server label "${server}" in \`tools\`; give each server its own label.`);
      seen.add(serverKey);
      return;
    }
    const key = namespace === undefined ? t.name : `${namespace}.${t.name}`;
    if (seen.has(key)) throw new UserError(`${label}: duplicate tool name "${key}" in \`tools\`.`);
    seen.add(key);
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

/**
 * The settings an agent gets when it sets none (as the reference): the default model's defaults when
 * it names no model, a named model's own defaults (GPT-5 reasoning and verbosity), nothing for a
 * model object.
 */
function implicitModelSettings(model: string | Model | undefined): ModelSettings {
  if (model === undefined || model === '') return getDefaultModelSettings();
  if (typeof model === 'string') return isGpt5OrNewerReasoningModel(model) ? getDefaultModelSettings(model) : {};
  return {};
}
