import type { Model, ModelRequest, ModelResponse, ModelRetryAdvice, ModelRetryAdviceRequest, ModelStreamEvent } from '@baton/types';
import type { AiSdkLanguageModel, AiSdkSpecificationVersion } from './languageModel.js';
import { callOptionsOf } from './internal/callOptions.js';
import { CallScope } from './internal/callScope.js';
import { requestIdOf } from './internal/headers.js';
import { generate, openStream } from './internal/invoke.js';
import type { CallOptions } from './internal/promptTypes.js';
import { responseOf } from './internal/response.js';
import { aiSdkRetryAdvice } from './internal/retryAdvice.js';
import { checkLanguageModel } from './internal/specVersion.js';
import { streamEvents } from './internal/streamParts.js';
import { abortedError, toProviderError } from './internal/toProviderError.js';

/**
 * A Vercel AI SDK language model (specification v4 or v3) as a Baton `Model`. Protocol items
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

  /** Throws a `UserError` naming what it received when `languageModel` is not an AI SDK v3 / v4 language model. */
  constructor(languageModel: AiSdkLanguageModel) {
    this.#model = checkLanguageModel(languageModel, 'aisdk()');
  }

  /** The wrapped AI SDK language model. */
  get languageModel(): AiSdkLanguageModel {
    return this.#model;
  }

  get specificationVersion(): AiSdkSpecificationVersion {
    return this.#model.specificationVersion;
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
    const options = this.#callOptions(request);
    const scope = new CallScope(request.signal, request.modelSettings ?? {});
    try {
      if (scope.signal.aborted) throw abortedError({ model: this.#model }, request.signal?.reason);
      let result;
      try {
        result = await scope.wait(generate(this.#model, { ...options, abortSignal: scope.signal }));
      } catch (error) {
        throw toProviderError(error, { model: this.#model, phase: 'request', signal: request.signal, timedOutAfterMs: scope.timedOutAfterMs });
      }
      return responseOf(result, this.#model);
    } finally {
      scope.dispose();
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const options = this.#callOptions(request);
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
      yield* streamEvents(opened.stream, { model: this.#model, scope, signal: request.signal, requestId: requestIdOf(opened.headers) });
    } finally {
      scope.dispose();
    }
  }

  #callOptions(request: ModelRequest): CallOptions {
    return callOptionsOf(request, { spec: this.#model.specificationVersion, model: this.#model });
  }
}

/**
 * Wraps a Vercel AI SDK language model (specification v4 from AI SDK 7, or v3 from AI SDK 6) as a
 * Baton model, the reference's `aisdk()`:
 *
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * const agent = new Agent({ name: 'Assistant', model: aisdk(anthropic('claude-sonnet-4-5')) });
 * ```
 */
export function aisdk(languageModel: AiSdkLanguageModel): AiSdkModel {
  return new AiSdkModel(languageModel);
}
