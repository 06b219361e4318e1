import {
  ToolInterruption,
  UserError,
  type AgentInputItem,
  type FunctionCallItem,
  type RunContextContract,
  type RunStreamEvent,
  type ToolCallDetails,
} from '@baton/types';
import type { Agent } from '../../definitions/agent.js';
import { RunContext } from '../../definitions/runContext.js';
import type { RunResult } from '../runResult.js';
import type { RunConfig, RunOptions } from '../../definitions/runConfig.js';
import type { AgentAsToolOptions, AgentTool, AgentToolFactory, AgentToolResumeOptions, AgentToolStreamHandler, CompletedAgentToolRunResult } from '../../definitions/agentTool.js';
import { RunState, recordOf } from '../../state/runState.js';
import type { StreamedRunResult } from '../streamedRunResult.js';
import { toFunctionToolName } from '../../definitions/internal/names.js';
import { requireBooleanOrFunction, requireFunction, typeName } from '../../definitions/internal/validate.js';
import { defaultToolErrorFunction } from '../../definitions/tool.js';
import { callScopeOf, rememberHandledToolError } from '../../definitions/internal/toolCallScope.js';
import { completeToolCallDetails } from '../../definitions/internal/toolCallDetails.js';
import { agentToolInput, parseAgentToolArguments, schemaSummary } from '../../definitions/internal/agentToolInput.js';
import { compileSchema, describeStandardSchema, isStandardSchema } from '../../definitions/internal/schema.js';
import { registerAgentToolSource } from '../../definitions/internal/agentToolSources.js';
import { nestedAgentToolRunConfig } from './agentToolRunConfig.js';
import { responseOutputText } from './outputText.js';

const CONTEXT_STRATEGIES = new Set(['merge', 'replace', 'preferSerialized']);

/** The options `asTool()` understands; anything else is a mistake to report, not to ignore. */
const KNOWN_OPTIONS = new Set([
  'toolName',
  'toolDescription',
  'customOutputExtractor',
  'needsApproval',
  'isEnabled',
  'onStream',
  'streaming',
  'runConfig',
  'runOptions',
  'maxTurns',
  'parameters',
  'inputBuilder',
  'includeInputSchema',
  'resumeState',
]);

/** The reference's agent-as-tool input schema, exactly as it sends it. */
const INPUT_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object' as const,
  properties: { input: { type: 'string' } },
  required: ['input'],
  additionalProperties: false,
};

/**
 * Starts a run as `new Runner(config).run(agent, input, options)` does. The runner hands it over
 * (see the end of `runner.ts`), since it builds these tools and this module may not import it.
 */
export type StartRun = (
  config: RunConfig,
  agent: Agent<any, any>,
  input: string | AgentInputItem[] | RunState<any, any>,
  options: RunOptions<any>,
) => Promise<RunResult<any, any> | StreamedRunResult<any, any>>;

/** The factory behind `agent.asTool()`: tools whose calls run the agent through `startRun`. */
export function agentToolFactory(startRun: StartRun): AgentToolFactory {
  return (agent, options) => makeAgentTool(startRun, agent as Agent<any, any>, options);
}

function makeAgentTool<TContext>(startRun: StartRun, agent: Agent<TContext, any>, options: AgentAsToolOptions<TContext>): AgentTool<TContext> {
  const label = `Agent "${agent.name}" asTool`;
  // Checked here so a wrong type fails as a UserError naming the field, not a TypeError later.
  for (const field of ['toolName', 'toolDescription'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'string') {
      throw new UserError(`${label}: \`${field}\` must be a string, got ${typeName(options[field])}.`);
    }
  }
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.has(key) && (options as Record<string, unknown>)[key] !== undefined);
  if (unknown.length > 0) {
    throw new UserError(`${label}: ${unknown.map((key) => `\`${key}\``).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not supported by Baton's asTool().`);
  }
  const strategy = resumeStrategyOf(options.resumeState, label);
  if (options.inputBuilder !== undefined) requireFunction(options.inputBuilder, `${label}: \`inputBuilder\``);
  const name = toFunctionToolName(options.toolName ?? agent.name);
  const schema = options.parameters === undefined ? undefined : compileSchema(options.parameters, { strict: true, owner: `${label} parameters` });
  // What the default input text says about a structured schema: a summary of its fields when they
  // are described, the whole JSON schema when `includeInputSchema` asks for it.
  const schemaInfo = schema
    ? { summary: schemaSummary(describedInput(options.parameters, schema)), jsonSchema: options.includeInputSchema === true ? schema.jsonSchema : undefined }
    : {};
  const capturesToolInput = schema !== undefined || options.inputBuilder !== undefined;
  const needsApproval = requireBooleanOrFunction(options.needsApproval ?? false, `${label}: \`needsApproval\``);
  const isEnabled = requireBooleanOrFunction(options.isEnabled ?? true, `${label}: \`isEnabled\``);
  if (options.onStream !== undefined) requireFunction(options.onStream, `${label}: \`onStream\``);
  if (options.customOutputExtractor !== undefined) requireFunction(options.customOutputExtractor, `${label}: \`customOutputExtractor\``);
  const handlers = new Map<string, AgentToolStreamHandler[]>();

  async function deliver(event: RunStreamEvent, toolCall: FunctionCallItem | undefined, details: ToolCallDetails): Promise<void> {
    const payload = { event, agent, toolCall };
    const targets = [...(options.onStream ? [options.onStream] : []), ...(handlers.get(event.type) ?? []), ...(handlers.get('*') ?? [])];
    await Promise.all(targets.map((handler) => handler(payload)));
    if (options.streaming) await details.emit(event);
  }

  /**
   * A nested run that fails answers the model with the default tool error text, as the reference's
   * agent tools do (the error is still reported on the tool's stream end event), invalid arguments
   * included; a cancelled run is not answered this way.
   */
  async function runNested(runContext: RunContextContract<TContext>, input: string, partialDetails?: Partial<ToolCallDetails>): Promise<unknown> {
    const details = completeToolCallDetails(name, input, partialDetails);
    try {
      return await runNestedOnce(runContext, input, details, partialDetails?.toolCall);
    } catch (error) {
      if (details.signal.aborted) throw error;
      rememberHandledToolError(details, error);
      return defaultToolErrorFunction(runContext, error);
    }
  }

  async function runNestedOnce(runContext: RunContextContract<TContext>, input: string, details: ToolCallDetails, givenCall: FunctionCallItem | undefined): Promise<unknown> {
    // The nested run shares the parent's context (and so its approvals), unless runOptions give one.
    const given = options.runOptions?.context;
    const base =
      given !== undefined
        ? given instanceof RunContext
          ? given
          : new RunContext(given)
        : runContext instanceof RunContext
          ? runContext
          : new RunContext(runContext.context);
    const parentConfig = parentRunConfigOf(details);
    const config = nestedAgentToolRunConfig(parentConfig, options.runConfig, agent.model);
    const params = await parseAgentToolArguments(name, input, schema);
    // A structured tool hands its arguments to the nested run as `toolInput` on a fork of the
    // context (same application context, usage and approvals); a plain one never passes on a
    // `toolInput` left from an outer call.
    const context = capturesToolInput ? base._forkWithToolInput(params) : base.toolInput !== undefined ? base._forkWithoutToolInput() : base;
    const startFrom =
      details.resumeState !== undefined ? await resumedNestedState(details.resumeState, context, runContext) : await agentToolInput(params, schemaInfo, options.inputBuilder);
    const streamed = options.streaming === true || options.onStream !== undefined || handlers.size > 0;
    // A nested run resumed with the context serialized at its pause keeps that context: handing
    // the live one here would overwrite it.
    const keepsSerializedContext = details.resumeState !== undefined && strategy === 'preferSerialized';
    const { context: _given, signal: configuredSignal, ...otherRunOptions } = options.runOptions ?? {};
    // A signal given in runOptions stops the nested run too, beside the tool call's own.
    const signal = configuredSignal instanceof AbortSignal ? AbortSignal.any([configuredSignal, details.signal]) : details.signal;
    const runOptions = {
      ...otherRunOptions,
      ...(keepsSerializedContext ? {} : { context }),
      signal,
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      // The nested runner's config takes only what the reference passes on, but a run that keeps
      // sensitive data out of its trace keeps it out of the nested run's spans too (a run option).
      ...(parentConfig?.traceIncludeSensitiveData === false ? { traceIncludeSensitiveData: false } : {}),
    };
    let result: RunResult<any, any> | StreamedRunResult<any, any>;
    if (streamed) {
      const streamedResult = (await startRun(config, agent, startFrom, { ...runOptions, stream: true })) as StreamedRunResult<any, any>;
      for await (const event of streamedResult) await deliver(event, givenCall, details);
      await streamedResult.completed;
      // A streamed run its signal cancelled ends quietly for its reader; for the call it ran for,
      // it is the cancellation it was (the call then ends \`aborted\`, not with an empty answer).
      if (signal.aborted && streamedResult.cancelled) throw signal.reason;
      result = streamedResult;
    } else {
      result = await startRun(config, agent, startFrom, runOptions);
    }
    // The call this nested run answered, as the caller gave it (a direct invoke may give none).
    const invocation = { toolName: givenCall?.name ?? name, toolCallId: givenCall?.callId, toolArguments: givenCall?.arguments };
    if (result.state instanceof RunState) result.state._agentToolInvocation = invocation;
    const interruptions = result.interruptions ?? [];
    if (interruptions.length > 0) return new ToolInterruption(interruptions, result.state);
    // The result reads its invocation from the state set just above.
    if (options.customOutputExtractor) return options.customOutputExtractor(result as CompletedAgentToolRunResult);
    return nestedOutputText(result, agent);
  }

  /** The paused nested run, rebuilt with the context the resume strategy picks. */
  async function resumedNestedState(text: string, context: RunContext<any>, parent: RunContextContract<TContext>): Promise<RunState<any, any>> {
    if (strategy === 'preferSerialized') return RunState.fromString(agent, text);
    if (strategy === 'merge' && parent instanceof RunContext && parent !== context) {
      context.mergeApprovals(parent.getApprovals(), parent.getApprovalRequests());
      context.mergeHostedMcpApprovals(parent.getHostedMcpApprovals());
    }
    return RunState.fromStringWithContext(agent, text, context, { contextStrategy: strategy });
  }

  const agentTool: AgentTool<TContext> = {
    type: 'function',
    name,
    description: options.toolDescription ?? agent.handoffDescription ?? '',
    parameters: schema?.jsonSchema ?? INPUT_SCHEMA,
    strict: true,
    invoke: runNested,
    async needsApproval(runContext, input, callId) {
      return typeof needsApproval === 'function' ? Boolean(await needsApproval(runContext as RunContext<TContext>, input as { input: string }, callId)) : needsApproval;
    },
    async isEnabled(runContext, parent) {
      return typeof isEnabled === 'function' ? Boolean(await isEnabled({ runContext: runContext as RunContext<TContext>, agent: parent })) : isEnabled;
    },
    on(type, handler) {
      requireFunction(handler, `${label}: .on("${type}") handler`);
      handlers.set(type, [...(handlers.get(type) ?? []), handler]);
      return agentTool;
    },
  };
  if (options.streaming) agentTool.streaming = true;
  registerAgentToolSource(agentTool, agent);
  return agentTool;
}

/** The schema as its author wrote it (optional fields not required), for the field summary. */
function describedInput(parameters: unknown, compiled: { jsonSchema: object }): Record<string, unknown> {
  if (isStandardSchema(parameters)) {
    try {
      return describeStandardSchema(parameters, 'asTool parameters', 'input');
    } catch {
      return compiled.jsonSchema as Record<string, unknown>;
    }
  }
  return parameters as Record<string, unknown>;
}

function resumeStrategyOf(resumeState: unknown, label: string): 'merge' | 'replace' | 'preferSerialized' {
  if (resumeState === undefined) return 'merge';
  if (typeof resumeState !== 'object' || resumeState === null) throw new UserError(`${label}: \`resumeState\` must be an object, got ${typeName(resumeState)}.`);
  const strategy = (resumeState as AgentToolResumeOptions).contextStrategy ?? 'merge';
  if (!CONTEXT_STRATEGIES.has(strategy)) {
    throw new UserError(`${label}: \`resumeState.contextStrategy\` must be 'merge', 'replace' or 'preferSerialized', got ${JSON.stringify(strategy)}.`);
  }
  return strategy;
}

/**
 * The configuration of the run that made the call: kept with the call by the run loop, or given
 * as `parentRunConfig` by a caller invoking the tool directly (as the reference accepts).
 */
function parentRunConfigOf(details: ToolCallDetails): RunConfig | undefined {
  const scoped = callScopeOf(details)?.runConfig as RunConfig | undefined;
  if (scoped) return scoped;
  const given = (details as { parentRunConfig?: unknown }).parentRunConfig;
  return typeof given === 'object' && given !== null && !Array.isArray(given) ? (given as RunConfig) : undefined;
}

/**
 * What the model receives from a nested run, as the reference answers: the text of the nested
 * run's last model response (all its message text when the response is only messages, reasoning
 * and tool search), else the final output as text (JSON for structured output). After an output
 * guardrail checked the answer, or when an error handler gave it, the final output comes first.
 */
function nestedOutputText(result: RunResult<any, any> | StreamedRunResult<any, any>, agent: Agent<any, any>): string {
  const checked = result.outputGuardrailResults?.at(-1);
  const finalOutput = checked ? checked.agentOutput : result.finalOutput;
  const outputType = checked ? (checked.agent as Agent<any, any>).outputType : agent.outputType;
  const finalText = finalOutput === undefined ? undefined : outputType === 'text' ? String(finalOutput) : JSON.stringify(finalOutput);
  const last = result.rawResponses?.at(-1);
  const rawText = last ? responseOutputText(last.output ?? []) : undefined;
  const modelText = rawText !== undefined && rawText.trim() !== '' ? rawText : undefined;
  const fromHandler = result.state instanceof RunState && recordOf(result.state).finalOutputFromErrorHandler === true;
  return (checked || fromHandler ? (finalText ?? modelText) : (modelText ?? finalText)) ?? '';
}
