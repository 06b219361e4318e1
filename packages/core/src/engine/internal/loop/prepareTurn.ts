import { dedupeFilteredInput } from './dedupeFilteredInput.js';
import * as Effect from 'effect/Effect';
import { annotate } from './span.js';
import {
  MaxTurnsExceededError,
  RunInputItem,
  type AgentInputItem,
  UserError,
  type Computer,
  type ComputerTool,
  type FunctionTool,
  type HandoffContract,
  type Model,
  type ModelPrompt,
  type ModelRequest,
  type ModelSettings,
  type SerializedTool,
  getDefaultModelSettings,
  getClientToolSearchExecutor,
} from '@baton/types';
import type { Agent } from '../../../definitions/agent.js';
import { isLocalTool, serializeLocalTool } from '../../../definitions/internal/localTools.js';
import { agentComputers } from './computerLifecycle.js';
import type { RunFailure } from '../failures.js';
import { fromUserCode } from '../userCode.js';
import { inputToItems, runItemsToInputItems } from '../../../state/internal/items.js';
import { continuationItems } from '../../../state/internal/continuationItems.js';
import { fromLatestCompaction } from '../../../state/internal/latestCompaction.js';
import type { RunRecord } from '../../../state/internal/runRecord.js';
import { settingsForModel } from '../legacyModelSettings.js';
import type { LoopEnv } from './loopEnv.js';
import { agentMcpTools, withMcpTools } from './mcpTools.js';
import { withToolSearchRuntimeTools } from './clientToolSearch.js';
import type { CallModelInputFilter, ModelInputData } from '../../../definitions/callModelInputFilter.js';
import { flatMapNow } from '../flatMapNow.js';
import { turnAnswersNow, type TurnAnswers } from './turnAnswersNow.js';
import { filteredInputSources } from './filteredInputSources.js';

export interface PreparedTurn {
  readonly agent: Agent<any, any>;
  readonly model: Model;
  readonly tools: readonly FunctionTool<any>[];
  readonly handoffs: readonly HandoffContract<any>[];
  readonly request: ModelRequest;
}

/**
 * Admits a new turn (the model call counts it) and resolves instructions, tools, handoffs, model
 * and input. Written as continuations rather than a generator: each step that has nothing to do
 * (no MCP server, no computer, no prompt) then costs a function call, not a fiber step.
 */
export function prepareTurn(record: RunRecord, env: LoopEnv): Effect.Effect<PreparedTurn, RunFailure> {
  return Effect.suspend(() => {
    const agent = record.currentAgent;
    // A turn cancelled during its model call is taken again, not counted again (see `callModel`).
    const turn = record.turnInProgress === true ? record.currentTurn : record.currentTurn + 1;
    if (record.maxTurns !== null && turn > record.maxTurns) {
      return Effect.fail(new MaxTurnsExceededError(`Max turns (${record.maxTurns}) exceeded`));
    }
    const unanswerable = unanswerableClientToolSearch(agent);
    if (unanswerable) return Effect.fail(unanswerable);
    const context = record.context;
    // Answers known without asking (the usual agent) cost no promise and no asynchronous step.
    // Otherwise the agent's callbacks and the provider run concurrently, as promises in one step:
    // forking a fiber for each would cost more than most of them take.
    const known = turnAnswersNow(agent, env);
    const answers: Effect.Effect<TurnAnswers, RunFailure> =
      known !== undefined
        ? Effect.succeed(known)
        : fromUserCode(env, () =>
            Promise.all([agent.getSystemPrompt(context), agent.getEnabledTools(context), agent.getEnabledHandoffs(context), providedModel(agent, env)]),
          );
    return flatMapNow(answers, ([systemInstructions, enabledTools, enabledHandoffs, chosenModel]) =>
      flatMapNow(capabilitiesFrom(agent, enabledTools, enabledHandoffs, record, env), (capabilities) =>
        flatMapNow(checkedModel(chosenModel, agent, env), (model) =>
          flatMapNow(
            annotate(env, () => ({ 'baton.agent.tools': capabilities.tools.map((t) => t.name), 'baton.agent.handoffs': capabilities.handoffs.map((h) => h.agentName) }), 'agent'),
            () =>
              flatMapNow(agentComputers(agent, record, env), (computers) => {
                // A caller's signal that aborted by now (already when a streamed run started, whose
                // cancellation arrives a microtask later) ends the run before the model is asked.
                if (env.signal?.aborted === true) return Effect.interrupt;
                // Once the agent's callbacks have answered: a run cancelled while they ran leaves it pending.
                admitPendingInput(record);
                const { request, explicitlyModelSet } = turnRequest(agent, model, capabilities, computers, record, env);
                if (systemInstructions !== undefined) request.systemInstructions = systemInstructions;
                return flatMapNow(promptedAndFiltered(request, agent, explicitlyModelSet, record, env), () => {
                  const conversation = record.serverConversation;
                  if (conversation?.previousResponseId !== undefined) request.previousResponseId = conversation.previousResponseId;
                  if (conversation?.conversationId !== undefined) request.conversationId = conversation.conversationId;
                  return Effect.succeed({ agent, model, tools: capabilities.tools, handoffs: capabilities.handoffs, request });
                });
              }),
          ),
        ),
      ),
    );
  });
}

/** The turn's model request before its prompt template and input filter, and whether a model was named. */
function turnRequest(
  agent: Agent<any, any>,
  model: Model,
  capabilities: Capabilities,
  computers: ReadonlyMap<ComputerTool<any, any>, Computer>,
  record: RunRecord,
  env: LoopEnv,
): { request: ModelRequest; explicitlyModelSet: boolean } {
  const chosen = env.model ?? agent.model;
  const modelName = typeof chosen === 'string' && chosen !== '' ? chosen : undefined;
  const explicitlyModelSet = chosen !== '' && chosen !== undefined;
  // An agent that set no model settings gets the defaults of the model the run resolves (the
  // runner's model included), as the reference does; settings it chose stay its own.
  // A prompt template that chooses the model (no model named) brings its own settings too.
  const promptOwnsModel = model.supportsPromptModelSelection === true && agent.prompt !== undefined && !explicitlyModelSet;
  const implicit = agent.hasExplicitModelSettings() || promptOwnsModel ? undefined : modelName !== undefined ? getDefaultModelSettings(modelName) : explicitlyModelSet ? {} : getDefaultModelSettings();
  const agentSettings = agent.hasExplicitModelSettings() ? agent.modelSettings : { ...implicit, ...storeOnly(agent.modelSettings) };
  const modelSettings = settingsForModel({ ...agentSettings, ...env.modelSettings }, modelName, explicitlyModelSet);
  // 'none' is not a stale hint to a tool: it stays (a hook may set it to end tool use).
  if (agent.resetToolChoice && modelSettings.toolChoice !== undefined && modelSettings.toolChoice !== 'none' && usedToolsBefore(record, agent)) {
    delete modelSettings.toolChoice;
  }
  const request: ModelRequest = {
    input: turnInput(record, env, env.callModelInputFilter?.preserveInputIdentity === true),
    modelSettings,
    tools: offeredTools(agent, capabilities.tools, computers),
    handoffs: capabilities.handoffs.map((h) => ({
      toolName: h.toolName,
      toolDescription: h.toolDescription,
      inputJsonSchema: h.inputJsonSchema,
      strictJsonSchema: h.strictJsonSchema,
    })),
    outputType: agent.getSerializedOutputType(),
    tracing: false,
    // Whether the reasoning effort sent is the model's default (a provider may leave it out where the API refuses it).
    _internal: {
      reasoningEffortImplicit: implicit?.reasoning?.effort !== undefined && env.modelSettings?.reasoning?.effort === undefined,
    },
  };
  return { request, explicitlyModelSet };
}

/** The agent's prompt template (when it has one) and then the run's input filter (when it has one) shape the request. */
function promptedAndFiltered(request: ModelRequest, agent: Agent<any, any>, explicitlyModelSet: boolean, record: RunRecord, env: LoopEnv): Effect.Effect<void, RunFailure> {
  const prompted =
    agent.prompt === undefined
      ? Effect.void
      : fromUserCode(env, () => agent.getPrompt(record.context)).pipe(
          Effect.map((prompt) => {
            if (prompt !== undefined) Object.assign(request, promptFields(prompt, agent, explicitlyModelSet));
          }),
        );
  const filter = env.callModelInputFilter;
  return filter ? flatMapNow(prompted, () => applyInputFilter(filter, request, agent, record, env)) : prompted;
}

/** A prompt template's request fields: a model chosen on the agent or the run wins over the prompt's own. */
function promptFields(prompt: ModelPrompt, agent: Agent<any, any>, explicitlyModelSet: boolean): Partial<ModelRequest> {
  return { prompt, toolsExplicitlyProvided: agent.hasExplicitToolConfig(), ...(explicitlyModelSet ? { overridePromptModel: true } : {}) };
}

/**
 * A client-executed tool search with parameters of its own needs the executor that answers its calls
 * (the built-in one loads the agent's deferred tools): without it the run stops before the model is called.
 */
function unanswerableClientToolSearch(agent: Agent<any, any>): UserError | undefined {
  for (const tool of agent.getHostedTools()) {
    const data = tool.providerData as { type?: unknown; execution?: unknown; parameters?: unknown } | undefined;
    if (data?.type !== 'tool_search' || data.execution !== 'client' || data.parameters === undefined) continue;
    if (getClientToolSearchExecutor(tool) === undefined) {
      return new UserError(
        `Agent "${agent.name}": the client tool search "${tool.name}" has parameters of its own, and such searches require toolSearchTool({ execution: "client", execute }) with an execute function that answers them.`,
      );
    }
  }
  return undefined;
}

/** The one setting an agent keeps over its model's defaults when it chose none: whether the provider stores the response. */
function storeOnly(settings: ModelSettings): ModelSettings {
  return settings.store !== undefined ? { store: settings.store } : {};
}

/**
 * The tools as the model sees them: MCP servers' tools first, then the agent's own in the order it
 * lists them (enabled function tools, and hosted tools passed through to the provider).
 */
function offeredTools(agent: Agent<any, any>, tools: readonly FunctionTool<any>[], computers: ReadonlyMap<ComputerTool<any, any>, Computer>): SerializedTool[] {
  if (agent.tools.every((t) => t.type === 'function')) return tools.map(serializeFunctionTool);
  const offered = new Set<unknown>(tools);
  const own = agent.tools.flatMap((t): SerializedTool[] =>
    t.type === 'hosted_tool'
      ? [{ type: 'hosted_tool', name: t.name, providerData: t.providerData }]
      : isLocalTool(t)
        ? [serializeLocalTool(t, t.type === 'computer' ? computers.get(t) : undefined)]
        : offered.has(t)
          ? [serializeFunctionTool(t)]
          : [],
  );
  const ownTools = new Set<unknown>(agent.tools);
  return [...tools.filter((t) => !ownTools.has(t)).map(serializeFunctionTool), ...own];
}

/** A function tool as the model is offered it. */
function serializeFunctionTool(t: FunctionTool<any>): SerializedTool {
  const serialized: SerializedTool = { type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: t.strict };
  if (t.deferLoading === true) serialized.deferLoading = true;
  if (t.allowedCallers !== undefined) serialized.allowedCallers = t.allowedCallers;
  if (t.namespace !== undefined) Object.assign(serialized, { namespace: t.namespace, namespaceDescription: t.namespaceDescription });
  return serialized;
}

/** Lists, not maps: a turn offers a handful, and a run waiting on its model holds them. */
export interface Capabilities {
  readonly tools: readonly FunctionTool<any>[];
  readonly handoffs: readonly HandoffContract<any>[];
}

/**
 * The current agent's enabled tools and handoffs, by the name the model calls them. A handoff
 * whose tool name is taken is a `UserError`, or with `toolNameCollisionPolicy: 'warn'` a warning
 * and the handoff is not offered (the function tool keeps the name).
 */
export function resolveCapabilities(record: RunRecord, env: LoopEnv): Effect.Effect<Capabilities, RunFailure> {
  const agent = record.currentAgent;
  return fromUserCode(env, () => Promise.all([agent.getEnabledTools(record.context), agent.getEnabledHandoffs(record.context)])).pipe(
    Effect.flatMap(([enabledTools, handoffs]) => capabilitiesFrom(agent, enabledTools, handoffs, record, env)),
  );
}

/** The enabled tools with the MCP servers' and any loaded by a client tool search, and the handoffs that can be offered beside them. */
function capabilitiesFrom(
  agent: Agent<any, any>,
  enabledTools: readonly FunctionTool<any>[],
  handoffs: readonly HandoffContract<any>[],
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<Capabilities, RunFailure> {
  return flatMapNow(agentMcpTools(agent, record, env), (mcpTools) =>
    flatMapNow(withMcpTools(agent, mcpTools, enabledTools, env), (tools) =>
      flatMapNow(withToolSearchRuntimeTools(agent, tools, record, env), (offered) => capabilitiesOf(agent, offered, handoffs, env)),
    ),
  );
}

function capabilitiesOf(
  agent: Agent<any, any>,
  tools: readonly FunctionTool<any>[],
  handoffs: readonly HandoffContract<any>[],
  env: LoopEnv,
): Effect.Effect<Capabilities, RunFailure> {
  if (handoffs.length === 0) return Effect.succeed({ tools, handoffs });
  const taken = new Set(tools.map((t) => t.name));
  const offered: HandoffContract<any>[] = [];
  const warnings: string[] = [];
  for (const handoff of handoffs) {
    if (taken.has(handoff.toolName)) {
      const message = `Agent "${agent.name}": the name "${handoff.toolName}" is used by more than one tool or handoff.`;
      if (env.toolNameCollisionPolicy === 'error') return Effect.fail(new UserError(message));
      warnings.push(`${message} The handoff to "${handoff.agentName}" is not offered.`);
      continue;
    }
    taken.add(handoff.toolName);
    offered.push(handoff);
  }
  const capabilities: Capabilities = { tools, handoffs: offered };
  return warnings.length === 0 ? Effect.succeed(capabilities) : Effect.forEach(warnings, (warning) => Effect.logWarning(warning)).pipe(Effect.as(capabilities));
}

/** Input staged with `state.addInput` enters the history now, right before the model call. */
function admitPendingInput(record: RunRecord): void {
  if (record.pendingInput.length === 0) return;
  for (const item of record.pendingInput) record.generatedItems.push(new RunInputItem(item, record.currentAgent));
  record.pendingInput = [];
}

/**
 * Everything so far, or with a server-kept conversation only what the server has not seen. With
 * `stable`, the original input is the run's prepared copy (made once), so each entry is the same
 * object on every turn.
 */
function turnInput(record: RunRecord, env: LoopEnv, stable: boolean): AgentInputItem[] {
  const conversation = record.serverConversation;
  if (!conversation || conversation.knownItems === undefined) {
    const original = stable ? preparedOriginalInput(record) : inputToItems(record.originalInput);
    return fromLatestCompaction([...original, ...continuationItems(record.generatedItems, record.reasoningItemIdPolicy)]);
  }
  // The turn's own items first, then the answers owed for calls the run ignored (as the reference orders them).
  const owed = conversation.owedOutputs.splice(0);
  conversation.sentOwed = owed.length > 0 ? owed : undefined;
  const unsent = conversation.unsentKnown;
  const earlier = unsent && unsent.size > 0 ? record.generatedItems.slice(0, conversation.knownItems).filter((item) => unsent.has(item)) : [];
  return [...runItemsToInputItems([...earlier, ...record.generatedItems.slice(conversation.knownItems)], record.reasoningItemIdPolicy), ...owed];
}

/** A copy of the original input, made once per original input (a handoff's input filter may replace it). */
function preparedOriginalInput(record: RunRecord): AgentInputItem[] {
  const prepared = record.preparedOriginalInput;
  if (prepared?.source === record.originalInput) return prepared.items;
  const items = structuredClone(inputToItems(record.originalInput));
  record.preparedOriginalInput = { source: record.originalInput, items };
  return items;
}

function usedToolsBefore(record: RunRecord, agent: Agent<any, any>): boolean {
  return record.generatedItems.some((item) => item.type === 'tool_call_item' && item.agent === agent);
}

/** The model instance, or what the provider returns for its name (checked by `checkedModel`). */
function providedModel(agent: Agent<any, any>, env: LoopEnv): Model | Promise<Model> {
  const chosen = env.model ?? agent.model;
  return typeof chosen === 'string' ? env.modelProvider.getModel(chosen === '' ? undefined : chosen) : chosen;
}

function checkedModel(model: Model | undefined, agent: Agent<any, any>, env: LoopEnv): Effect.Effect<Model, RunFailure> {
  const chosen = env.model ?? agent.model;
  if (typeof chosen !== 'string' || (model && typeof model.getResponse === 'function')) return Effect.succeed(model as Model);
  return Effect.fail(new UserError(`The model provider returned no model for "${chosen}".`));
}

/** The run's `callModelInputFilter` sees a copy of the call's input and instructions and returns what is sent. */
function applyInputFilter(
  filter: CallModelInputFilter<any>,
  request: ModelRequest,
  agent: Agent<any, any>,
  record: RunRecord,
  env: LoopEnv,
): Effect.Effect<void, RunFailure> {
  const stable = filter.preserveInputIdentity === true;
  const modelData: ModelInputData = { input: stable ? [...(request.input as AgentInputItem[])] : structuredClone(request.input as AgentInputItem[]) };
  if (request.systemInstructions !== undefined) modelData.instructions = request.systemInstructions;
  return fromUserCode(env, () => filter({ modelData, agent, context: record.context.context })).pipe(
    Effect.flatMap((result) => {
      if (typeof result !== 'object' || result === null || !Array.isArray(result.input)) {
        return Effect.fail(new UserError('callModelInputFilter must return a ModelInputData object with an input array.'));
      }
      // The filter's items are the run's own when it keeps identities: the model gets a copy.
      // A provider item the filter gives twice reaches the model once, as its latest version.
      const input = dedupeFilteredInput(result.input);
      recordFilteredNewInput(record, request.input as AgentInputItem[], modelData.input, input);
      request.input = stable ? structuredClone(input) : input;
      if (typeof result.instructions === 'string') request.systemInstructions = result.instructions;
      else delete request.systemInstructions;
      return Effect.void;
    }),
  );
}

/**
 * While the run's new input is still to be saved, what the filter made of it this turn: the session
 * keeps that (as the reference does), so an input the filter redacted or dropped is not stored raw.
 */
function recordFilteredNewInput(record: RunRecord, given: AgentInputItem[], handed: AgentInputItem[], answer: AgentInputItem[]): void {
  const tracked = record.session?.pendingInput !== undefined ? record.session.filteredInput : undefined;
  if (tracked === undefined) return;
  // The turn's copies of the original input (when the filter keeps identities) stand for the run's own items.
  const prepared = record.preparedOriginalInput;
  const originals = prepared?.source === record.originalInput ? inputToItems(record.originalInput) : undefined;
  const originalOf = new Map<AgentInputItem, AgentInputItem>();
  prepared?.items.forEach((copy, index) => originals?.[index] !== undefined && originalOf.set(copy, originals[index]!));
  const sources = filteredInputSources(given, handed, answer).map((source) => (source === undefined ? undefined : (originalOf.get(source) ?? source)));
  tracked.record(sources, answer);
}
