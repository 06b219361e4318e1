import { Usage, UserError, defaultToolErrorFunction, tool, toFunctionToolName, type FunctionTool } from '@baton/core';
import type { z } from 'zod';
import type { CodexClient, CodexOptions, CodexThread, CodexUsage, SandboxMode, ThreadOptions, TurnOptions } from './codexSdkTypes.js';
import { consumeTurn, type CodexToolStreamHandler } from './internal/consumeEvents.js';
import { isMissingCodexSdkError, loadCodexSdk } from './internal/loadCodexSdk.js';
import { resolveOutputSchema, type CodexOutputSchemaDescriptor } from './internal/outputSchema.js';
import {
  codexParameters,
  codexRunContextParameters,
  normalizeArguments,
  normalizeThreadId,
  type CodexCallArguments,
  type CodexToolParametersSchema,
} from './internal/parameters.js';
import { assertWritableContext, readContextThreadId, writeContextThreadId } from './internal/runContextThreadId.js';

export interface CodexToolOptions {
  /** The tool's name, always in the `codex` namespace: `'engineer'` becomes `codex_engineer`. Default `codex`. */
  name?: string;
  description?: string;
  /** A parameters schema of your own; it must keep the default `inputs` shape. */
  parameters?: CodexToolParametersSchema;
  /** The JSON object every Codex turn answers with: a descriptor, a JSON object schema or a zod object. */
  outputSchema?: CodexOutputSchemaDescriptor | Record<string, unknown> | z.ZodType;
  /** A Codex client to use; otherwise one is made (from `codexOptions`) on the first call. */
  codex?: CodexClient;
  codexOptions?: CodexOptions;
  /** Options of every thread the tool starts or resumes. */
  defaultThreadOptions?: ThreadOptions;
  /** A Codex thread to continue when a call names none. */
  threadId?: string;
  sandboxMode?: SandboxMode;
  /** The folder Codex works in (absolute). */
  workingDirectory?: string;
  /** Let Codex work outside a Git repository. */
  skipGitRepoCheck?: boolean;
  /** Options of every turn (the output schema is added to them). */
  defaultTurnOptions?: TurnOptions;
  /** Keep one Codex thread for every call of this tool. */
  persistSession?: boolean;
  /** Watches each Codex event while a call runs. The events stay out of the run's history. */
  onStream?: CodexToolStreamHandler;
  /** Keep the thread id in the run's context (under `runContextThreadIdKey`), so runs sharing it continue the thread. */
  useRunContextThreadId?: boolean;
  /** Default `codexThreadId` for the tool named `codex`, `codexThreadId_<suffix>` for `codex_<suffix>`. */
  runContextThreadIdKey?: string;
}

/** What a call answers the model with (as JSON). */
export interface CodexToolResult {
  threadId: string | null;
  response: string;
  usage: CodexUsage | null;
}

const DEFAULT_NAME = 'codex';
const NAME_PREFIX = 'codex_';
const DEFAULT_CONTEXT_KEY = 'codexThreadId';

function toolNameOf(configured: string): string {
  const trimmed = configured.trim();
  if (!trimmed) throw new UserError('codexTool(): `name` must not be empty.');
  const name = toFunctionToolName(trimmed);
  return isCodexToolName(name) ? name : `${NAME_PREFIX}${name}`;
}

function isCodexToolName(name: string): boolean {
  return name === DEFAULT_NAME || name.startsWith(NAME_PREFIX);
}

function contextKeyOf(toolName: string, configured: string | undefined): string {
  if (configured !== undefined) {
    if (typeof configured !== 'string' || !configured.trim()) throw new UserError('codexTool(): `runContextThreadIdKey` must be a non-empty string.');
    return configured.trim();
  }
  return toolName === DEFAULT_NAME ? DEFAULT_CONTEXT_KEY : `${DEFAULT_CONTEXT_KEY}_${toolName.slice(NAME_PREFIX.length)}`;
}

function threadOptionsOf(options: CodexToolOptions): ThreadOptions | undefined {
  const { defaultThreadOptions, sandboxMode, workingDirectory, skipGitRepoCheck } = options;
  if (!defaultThreadOptions && !sandboxMode && !workingDirectory && skipGitRepoCheck === undefined) return undefined;
  return {
    ...defaultThreadOptions,
    ...(sandboxMode ? { sandboxMode } : {}),
    ...(workingDirectory ? { workingDirectory } : {}),
    ...(typeof skipGitRepoCheck === 'boolean' ? { skipGitRepoCheck } : {}),
  };
}

/** The API key when none is configured: `CODEX_API_KEY`, else `OPENAI_API_KEY` (from the options' env, else the process's). */
function codexOptionsWithKey(options: CodexOptions | undefined): CodexOptions | undefined {
  if (options?.apiKey) return options;
  const env = options?.env;
  const apiKey = env?.CODEX_API_KEY ?? env?.OPENAI_API_KEY ?? process.env.CODEX_API_KEY ?? process.env.OPENAI_API_KEY;
  return apiKey ? { ...options, apiKey } : options;
}

/**
 * A function tool that hands a task to a Codex agent (through `@openai/codex-sdk`, which runs the
 * Codex CLI) and answers with Codex's final message, its thread id and the turn's usage. The
 * turn's usage is added to the run's. Codex's events go to `onStream` as they happen.
 */
export function codexTool<TContext = unknown>(options: CodexToolOptions = {}): FunctionTool<TContext> {
  const name = toolNameOf(options.name ?? DEFAULT_NAME);
  const useContext = options.useRunContextThreadId ?? false;
  const contextKey = contextKeyOf(name, options.runContextThreadIdKey);
  const configuredThreadId = normalizeThreadId(options.threadId, '`threadId`');
  const outputSchema = resolveOutputSchema(options.outputSchema);
  const threadOptions = threadOptionsOf(options);
  const turnDefaults: TurnOptions | undefined =
    options.defaultTurnOptions || outputSchema ? { ...options.defaultTurnOptions, ...(outputSchema ? { outputSchema } : {}) } : undefined;

  let codex: Promise<CodexClient> | undefined = options.codex ? Promise.resolve(options.codex) : undefined;
  const codexClient = (): Promise<CodexClient> =>
    (codex ??= loadCodexSdk().then(
      ({ Codex: CodexClient }) => new CodexClient(codexOptionsWithKey(options.codexOptions)),
      (error: unknown) => {
        codex = undefined; // installed later, the next call finds it
        throw error;
      },
    ));
  let persisted: CodexThread | undefined;

  const threadFor = (client: CodexClient, threadId: string | undefined): CodexThread => {
    if (options.persistSession && persisted) {
      if (threadId && persisted.id && persisted.id !== threadId) {
        throw new UserError(`Codex tool "${name}" keeps one thread (persistSession) and is already on thread ${persisted.id}, not ${threadId}.`);
      }
      return persisted;
    }
    const thread = threadId ? client.resumeThread(threadId, threadOptions) : client.startThread(threadOptions);
    if (options.persistSession) persisted = thread;
    return thread;
  };

  return tool({
    name,
    description: options.description ?? 'Runs an agentic Codex task against the current workspace.',
    parameters: options.parameters ?? (useContext ? codexRunContextParameters : codexParameters),
    strict: true,
    needsApproval: false,
    // Codex failing is the model's to hear about; a missing SDK is the developer's, so it fails the run.
    errorFunction: (context, error) => {
      if (isMissingCodexSdkError(error)) throw error;
      return defaultToolErrorFunction(context, error);
    },
    execute: async (input, runContext, details): Promise<CodexToolResult> => {
      const args: CodexCallArguments = normalizeArguments(input as Parameters<typeof normalizeArguments>[0]);
      if (useContext) assertWritableContext(runContext.context, contextKey);
      const threadId = args.threadId ?? (useContext ? readContextThreadId(runContext.context, contextKey) : undefined) ?? configuredThreadId;
      const thread = threadFor(await codexClient(), threadId);
      const signal = details?.signal;
      const turnOptions = signal ? { ...turnDefaults, signal } : turnDefaults;
      const { events } = await thread.runStreamed(args.inputs, turnOptions);
      const outcome = await consumeTurn(events, { onStream: options.onStream, ...(details?.toolCall ? { toolCall: details.toolCall } : {}) });
      const resolvedThreadId = thread.id ?? outcome.threadId;
      if (outcome.usage) runContext.usage.add(usageOf(outcome.usage));
      if (useContext) writeContextThreadId(runContext.context, contextKey, resolvedThreadId);
      return {
        threadId: resolvedThreadId,
        response: outcome.response || `Codex task completed ${args.inputs.length > 0 ? 'with inputs.' : 'with no inputs.'}`,
        usage: outcome.usage,
      };
    },
  }) as unknown as FunctionTool<TContext>;
}

/** A Codex turn's usage as one request of the run's usage. */
function usageOf(usage: CodexUsage): Usage {
  return new Usage({
    requests: 1,
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.input_tokens + usage.output_tokens,
    ...(typeof usage.cached_input_tokens === 'number' ? { inputTokensDetails: { cached_input_tokens: usage.cached_input_tokens } } : {}),
  });
}
