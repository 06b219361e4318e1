import type OpenAI from 'openai';
import { lazyClient, type OpenAIClientSource } from './internal/clientSource.js';
import { UserError, type Model, type ModelProvider } from '@baton/types';
import type { ClientOptions } from 'ws';
import {
  env,
  getDefaultOpenAIClient,
  getDefaultOpenAIKey,
  getDefaultOpenAIModel,
  getDefaultOpenAIWebSocketBaseURL,
  getOpenAIAPI,
  getOpenAIResponsesTransport,
} from './defaults.js';
import { OpenAIChatCompletionsModel } from './openaiChatCompletionsModel.js';
import { OpenAIResponsesModel } from './openaiResponsesModel.js';
import { OpenAIResponsesWSModel } from './openaiResponsesWSModel.js';

export interface OpenAIProviderOptions {
  /** Defaults to the key from `setDefaultOpenAIKey`, else `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Defaults to `OPENAI_BASE_URL`, else `https://api.openai.com/v1`. Any OpenAI-compatible endpoint works. */
  baseURL?: string;
  organization?: string;
  project?: string;
  /** `true`: Responses API, `false`: Chat Completions. Defaults to `setOpenAIAPI` (Responses). */
  useResponses?: boolean;
  /** A ready `openai` client; excludes apiKey, baseURL, organization and project. */
  openAIClient?: OpenAI;
  /** Chat Completions models reject what the API cannot carry instead of ignoring it with a warning. */
  strictFeatureValidation?: boolean;
  /** Responses models over a kept WebSocket (`OpenAIResponsesWSModel`); default: `setOpenAIResponsesTransport`. */
  useResponsesWebSocket?: boolean;
  /** The WebSocket base URL (default: the client's base URL, else `OPENAI_WEBSOCKET_BASE_URL` for a client the provider makes). */
  websocketBaseURL?: string;
  /** Options for the `ws` client of WebSocket models. */
  responsesWebSocketOptions?: ClientOptions;
  /** Keep one WebSocket model per name (default `true`), so turns share its socket. */
  cacheResponsesWebSocketModels?: boolean;
}

const CLIENT_OPTIONS = ['apiKey', 'baseURL', 'organization', 'project'] as const;

/**
 * Resolves model names to OpenAI models on the official `openai` client: `OpenAIResponsesModel`
 * by default, `OpenAIChatCompletionsModel` with `useResponses: false` (or
 * `setOpenAIAPI('chat_completions')`). The client is made on first use, so a provider can be
 * created before the environment is set; it reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` then. A
 * client the provider makes has the client's own retries off (`maxRetries: 0`): the models retry
 * with one policy, from `modelSettings.retry`. One model object is kept per name and API.
 */
export class OpenAIProvider implements ModelProvider {
  readonly #options: OpenAIProviderOptions;
  readonly #models = new Map<string, Model>();
  #client: OpenAIClientSource | undefined;

  constructor(options: OpenAIProviderOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new UserError('OpenAIProvider: options must be an object.');
    if (options.openAIClient !== undefined) {
      // The reference's rule and words: a key or URL that is set, or any organization / project.
      const websocketBaseURL = options.websocketBaseURL;
      const clash = [
        options.apiKey ? 'apiKey' : undefined,
        options.baseURL ? 'baseURL' : undefined,
        websocketBaseURL ? 'websocketBaseURL' : undefined,
        options.organization !== undefined ? 'organization' : undefined,
        options.project !== undefined ? 'project' : undefined,
      ].find((key) => key !== undefined);
      if (clash !== undefined) throw new UserError(`Cannot provide both ${clash} and openAIClient`);
    }
    if (options.useResponses !== undefined && typeof options.useResponses !== 'boolean') {
      throw new UserError('OpenAIProvider: useResponses must be a boolean.');
    }
    this.#options = { ...options };
    this.#client = options.openAIClient;
  }

  /** The model for a name (default: `OPENAI_DEFAULT_MODEL`, else `DEFAULT_OPENAI_MODEL`). */
  getModel(modelName?: string): Model {
    const name = modelName || getDefaultOpenAIModel();
    const useResponses = this.#options.useResponses ?? getOpenAIAPI() === 'responses';
    const useWebSocket = useResponses && (this.#options.useResponsesWebSocket ?? getOpenAIResponsesTransport() === 'websocket');
    const key = `${useWebSocket ? 'responses_websocket' : useResponses ? 'responses' : 'chat_completions'}:${name}`;
    // An uncached WebSocket model is the caller's to close.
    const cache = !(useWebSocket && this.#options.cacheResponsesWebSocketModels === false);
    let model = cache ? this.#models.get(key) : undefined;
    if (model === undefined) {
      const client = this.#getClient();
      model = useWebSocket
        ? new OpenAIResponsesWSModel(client, name, this.#webSocketOptions())
        : useResponses
          ? new OpenAIResponsesModel(client, name)
          : new OpenAIChatCompletionsModel(client, name, { strictFeatureValidation: this.#options.strictFeatureValidation ?? false });
      if (cache) this.#models.set(key, model);
    }
    return model;
  }

  #webSocketOptions(): ConstructorParameters<typeof OpenAIResponsesWSModel>[2] {
    // A configured client or base URL keeps its endpoint; only a client the provider makes from the
    // environment takes OPENAI_WEBSOCKET_BASE_URL.
    const websocketBaseURL =
      this.#options.websocketBaseURL ??
      (this.#options.openAIClient || this.#options.baseURL || getDefaultOpenAIClient() ? undefined : getDefaultOpenAIWebSocketBaseURL());
    return {
      ...(websocketBaseURL !== undefined ? { websocketBaseURL } : {}),
      ...(this.#options.responsesWebSocketOptions !== undefined ? { websocketOptions: this.#options.responsesWebSocketOptions } : {}),
    };
  }

  /** Closes the models made so far that hold resources (a `close()` method) and forgets them all. */
  async close(): Promise<void> {
    const models = [...new Set(this.#models.values())];
    this.#models.clear();
    const failures: unknown[] = [];
    await Promise.all(
      models.map(async (model) => {
        const close = (model as { close?: () => unknown }).close;
        if (typeof close !== 'function') return;
        try {
          await close.call(model);
        } catch (error) {
          failures.push(error);
        }
      }),
    );
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'Failed to close OpenAIProvider.');
  }

  /** The client, made on the first request (the key is checked now, so a missing one fails here). */
  #getClient(): OpenAIClientSource {
    if (this.#client !== undefined) return this.#client;
    const hasClientOptions = CLIENT_OPTIONS.some((key) => this.#options[key] !== undefined);
    const shared = hasClientOptions ? undefined : getDefaultOpenAIClient();
    if (shared !== undefined) return shared;
    this.#client = lazyClient(clientOptions(this.#options));
    return this.#client;
  }
}

/** The options for a client the provider makes; its own retries are off (the models retry). */
function clientOptions(options: OpenAIProviderOptions): ConstructorParameters<typeof OpenAI>[0] {
  const apiKey = options.apiKey ?? getDefaultOpenAIKey();
  if (apiKey === undefined) {
    throw new UserError(
      'No OpenAI API key: set OPENAI_API_KEY, call setDefaultOpenAIKey(), or give OpenAIProvider an apiKey or an openAIClient.',
    );
  }
  return {
    apiKey,
    baseURL: options.baseURL ?? env('OPENAI_BASE_URL') ?? null,
    organization: options.organization ?? env('OPENAI_ORG_ID') ?? null,
    project: options.project ?? env('OPENAI_PROJECT_ID') ?? null,
    maxRetries: 0,
  };
}
