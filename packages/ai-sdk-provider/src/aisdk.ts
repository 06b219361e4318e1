import { Usage, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type ModelRetryAdvice, type ModelRetryAdviceRequest, type ModelStreamEvent } from '@baton/types';
import type { AiSdkModelOptions } from './aisdkModelOptions.js';
import type { AiSdkLanguageModel, AiSdkSpecificationVersion } from './languageModel.js';
import { callOptionsOf } from './internal/callOptions.js';
import { CallScope } from './internal/callScope.js';
import { requestIdOf } from './internal/headers.js';
import { generate, openStream } from './internal/invoke.js';
import type { CallOptions } from './internal/promptTypes.js';
import { responseOf } from './internal/response.js';
import { aiSdkRetryAdvice } from './internal/retryAdvice.js';
import { transformOutputText } from './internal/outputText.js';
import { snapshotUsage, usageOf } from './internal/usage.js';
import { checkLanguageModel, specOf } from './internal/specVersion.js';
import { toolSearchTarget } from './internal/toolSearchOutput.js';
import { expectsObjectInput, resolveTools, toolDataLoggable, type ResolvedTools } from './internal/toolNames.js';
import { streamEvents } from './internal/streamParts.js';
import { abortedError, toProviderError } from './internal/toProviderError.js';

/**
 * A Vercel AI SDK language model (specification v4, v3 or v2) as a Baton `Model`. Protocol items
 * become the AI SDK prompt, tools and handoffs become function tools, structured output becomes
 * `responseFormat: { type: 'json' }`, and the model's content or stream parts become protocol
 * items again, with each part's provider metadata kept in the item's `providerData` so reasoning
 * signatures and tool-call metadata go back on the next request. Failures throw
 * `AiSdkProviderError`; invalid requests throw `UserError`. The adapter makes one attempt per
 * call: retries come from `modelSettings.retry` with a policy (`retryPolicies.providerSuggested()`
 * follows `getRetryAdvice`).
 */
export class AiSdkModel implements Model {
  readonly #model: AiSdkLanguageModel;
  readonly #spec: AiSdkSpecificationVersion;
  readonly #options: AiSdkModelOptions;

  /** Throws a `UserError` naming what it received when `languageModel` is not an AI SDK v2 / v3 / v4 language model. */
  constructor(languageModel: AiSdkLanguageModel, options: AiSdkModelOptions = {}) {
    this.#model = checkLanguageModel(languageModel, 'aisdk()');
    this.#spec = specOf(this.#model) ?? 'v2';
    this.#options = options;
  }

  /** The wrapped AI SDK language model. */
  get languageModel(): AiSdkLanguageModel {
    return this.#model;
  }

  /** The model's specification, normalised (`v2` for a model object without one). */
  get specificationVersion(): AiSdkSpecificationVersion {
    return this.#spec;
  }

  /** The language model's provider id, for example `anthropic.messages`. */
  get provider(): string {
    return this.#model.provider;
  }

  get modelId(): string {
    return this.#model.modelId;
  }

  /** For traces: a `generation` span per call (model, settings, usage), as the reference's adapter. */
  get traceSpanType(): 'generation' {
    return 'generation';
  }

  /** The model id, for traces (`gen_ai.request.model`). */
  get modelName(): string {
    return this.#model.modelId;
  }

  /** Advice for `modelSettings.retry.policy`; see `retryPolicies.providerSuggested()`. */
  getRetryAdvice(args: ModelRetryAdviceRequest): ModelRetryAdvice | undefined {
    return aiSdkRetryAdvice(args);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const tools = resolveTools(request);
    const options = this.#callOptions(request, tools);
    const scope = new CallScope(request.signal, request.modelSettings ?? {});
    try {
      if (scope.signal.aborted) throw abortedError({ model: this.#model }, request.signal?.reason);
      let result;
      try {
        result = await scope.wait(generate(this.#model, { ...options, abortSignal: scope.signal }));
      } catch (error) {
        throw toProviderError(error, { model: this.#model, phase: 'request', signal: request.signal, timedOutAfterMs: scope.timedOutAfterMs });
      }
      const rawUsage = request.modelSettings?.preserveRawUsage === true ? snapshotUsage(result.usage) : undefined;
      const response = responseOf(result, this.#model, toolSearchTarget(tools.tools));
      await this.#finishOutput(response.output, request, tools, false);
      // Usage is read once the response is final (from the snapshot taken on arrival when it is preserved).
      response.usage = new Usage(usageOf(rawUsage ?? result.usage));
      if (rawUsage !== undefined) response.rawUsage = rawUsage;
      return response;
    } finally {
      scope.dispose();
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const tools = resolveTools(request);
    const options = this.#callOptions(request, tools);
    const scope = new CallScope(request.signal, request.modelSettings ?? {});
    try {
      if (scope.signal.aborted) throw abortedError({ model: this.#model }, request.signal?.reason);
      let opened;
      try {
        opened = await scope.wait(openStream(this.#model, { ...options, abortSignal: scope.signal }));
      } catch (error) {
        scope.abort();
        throw toProviderError(error, { model: this.#model, phase: 'request', signal: request.signal, timedOutAfterMs: scope.timedOutAfterMs });
      }
      const context = { model: this.#model, scope, signal: request.signal, requestId: requestIdOf(opened.headers), preserveRawUsage: request.modelSettings?.preserveRawUsage, toolSearch: toolSearchTarget(tools.tools) };
      for await (const event of streamEvents(opened.stream, context)) {
        if (event.type === 'response_done') await this.#finishOutput(event.response.output, request, tools, true);
        yield event;
      }
    } finally {
      scope.dispose();
    }
  }

  #callOptions(request: ModelRequest, tools: ResolvedTools): CallOptions {
    return callOptionsOf({ ...request, tools: tools.tools, handoffs: tools.handoffs }, { spec: this.#spec, model: this.#model });
  }

  /** The last touches on a response's items: an empty tool input means `{}` for tools that take an object, then `transformOutputText`. */
  async #finishOutput(output: AgentOutputItem[], request: ModelRequest, tools: ResolvedTools, stream: boolean): Promise<void> {
    for (const item of output) {
      if (item.type !== 'function_call') continue;
      const requested = tools.byName.get(item.name);
      if (requested === undefined) warnUnknownTool(item.name);
      if (item.arguments.trim() === '' && expectsObjectInput(requested)) item.arguments = '{}';
      // A namespaced tool's call names the tool and its namespace apart, as the run loop dispatches it.
      const namespace = requested?.kind === 'tool' ? (requested.tool as { namespace?: unknown }).namespace : undefined;
      if (requested?.kind === 'tool' && typeof namespace === 'string' && namespace !== '') Object.assign(item, { name: requested.tool.name, namespace });
    }
    const transform = this.#options.transformOutputText;
    if (transform === undefined) return;
    const context = { request, provider: this.#model.provider, modelId: this.#model.modelId, specificationVersion: this.#spec, stream };
    await transformOutputText(output, (text) => transform(text, context));
  }
}

/** A call of a tool the request did not offer: the run loop will answer it; the log says so (the name only when tool data may be logged). */
function warnUnknownTool(name: string): void {
  console.warn(toolDataLoggable({ andModelData: true }) ? `Received tool call for unknown tool '${name}'.` : 'Received tool call for an unknown tool. Tool name is redacted.');
}

/**
 * Wraps a Vercel AI SDK language model (specification v4 from AI SDK 7, v3 from AI SDK 6 or v2 from
 * AI SDK 5) as a Baton model, the reference's `aisdk()`:
 *
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * const agent = new Agent({ name: 'Assistant', model: aisdk(anthropic('claude-sonnet-4-5')) });
 * const fenced = aisdk(model, { transformOutputText: (text) => text.replace(/^```json\n|\n```$/g, '') });
 * ```
 */
export function aisdk(languageModel: AiSdkLanguageModel, options: AiSdkModelOptions = {}): AiSdkModel {
  return new AiSdkModel(languageModel, options);
}
