import type { Model, ModelSettings } from '@baton/types';
import type { RunConfig } from '../../definitions/runConfig.js';

/**
 * What a nested agent-tool run takes from the run that called the tool, as the reference decides:
 * the model provider, the model and its settings (unless the tool's own `runConfig` brings a
 * provider: then the parent's model names may not exist there), the tool policies and the tracing
 * settings. Not the parent's guardrails, handoff filter, error handlers or trace identity: those
 * belong to the outer agent's run. Tool-selection settings (`toolChoice`, `parallelToolCalls`) are
 * the outer agent's and never inherited, and an explicit `Model` object keeps its own transport
 * (the parent's `extra_headers` / `extra_query` / `extra_body` provider data are left out).
 * Baton's own run machinery (step runner, tracer, limits, stream buffer size) always follows the parent.
 */

type Json = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Provider data keys that override the HTTP transport, in both spellings the providers accept. */
const TRANSPORT_ALIASES = [
  ['extra_headers', 'extraHeaders'],
  ['extra_query', 'extraQuery'],
  ['extra_body', 'extraBody'],
] as const;

/** Settings objects merged key by key when both sides give one (rather than replaced whole). */
const NESTED_SETTINGS = ['reasoning', 'text', 'promptCacheOptions'] as const;

// `streamBufferSize` bounds each level of a streamed run: a nested run keeps the caller's bound.
const INHERITED_POLICIES = ['toolExecution', 'toolNotFoundBehavior', 'invalidToolInputBehavior', 'toolNameCollisionPolicy', 'tracing', 'stepRunner', 'tracer', 'limits', 'streamBufferSize'] as const;

/** The configuration of an agent tool's nested run: inherited from the parent's, with the tool's own `runConfig` over it. */
export function nestedAgentToolRunConfig(parent: RunConfig | undefined, own: RunConfig | undefined, agentModel: string | Model | undefined): RunConfig {
  // The model the nested run will use: the agent's own when it names one, else the tool's runConfig's.
  const inherited = inheritedRunConfig(parent, own, agentModel ? agentModel : own?.model);
  if (!inherited) return own ?? {};
  if (!own) return inherited;
  const merged: RunConfig = { ...inherited, ...own };
  if (inherited.modelSettings && own.modelSettings && hasOwn(own, 'modelSettings')) {
    merged.modelSettings = mergeInheritedModelSettings(inherited.modelSettings, own.modelSettings);
  }
  if (isPlainObject(inherited.tracing) && isPlainObject(own.tracing)) merged.tracing = { ...inherited.tracing, ...own.tracing };
  return merged;
}

function inheritedRunConfig(parent: RunConfig | undefined, own: RunConfig | undefined, explicitModel: string | Model | undefined): RunConfig | undefined {
  if (!parent) return undefined;
  const inherited: RunConfig = {};
  const ownProvider = own?.modelProvider !== undefined;
  if (parent.modelProvider !== undefined) inherited.modelProvider = parent.modelProvider;
  if (!ownProvider && parent.model !== undefined) inherited.model = parent.model;
  if (!ownProvider && parent.modelSettings !== undefined) {
    const settings = safeModelSettings(parent.modelSettings, explicitModel);
    if (settings) inherited.modelSettings = settings;
  }
  for (const key of INHERITED_POLICIES) {
    if (parent[key] !== undefined) (inherited as Json)[key] = parent[key];
  }
  if (parent.tracingDisabled !== undefined && own?.tracingDisabled === undefined) inherited.tracingDisabled = parent.tracingDisabled;
  return Object.keys(inherited).length > 0 ? inherited : undefined;
}

function safeModelSettings(settings: ModelSettings, explicitModel: string | Model | undefined): ModelSettings | undefined {
  const { toolChoice: _choice, parallelToolCalls: _parallel, ...safe } = settings;
  if (typeof explicitModel === 'object' && explicitModel !== null && isPlainObject(safe.providerData)) {
    const providerData = { ...safe.providerData };
    for (const aliases of TRANSPORT_ALIASES) for (const key of aliases) delete providerData[key];
    safe.providerData = providerData;
  }
  return Object.keys(safe).length > 0 ? safe : undefined;
}

function mergeInheritedModelSettings(inherited: ModelSettings, own: ModelSettings): ModelSettings {
  const merged = { ...inherited, ...own } as Json;
  const from = inherited as Json;
  const over = own as Json;
  for (const key of NESTED_SETTINGS) {
    if (isPlainObject(from[key]) && isPlainObject(over[key])) merged[key] = { ...from[key], ...over[key] };
  }
  if (isPlainObject(from.retry) && isPlainObject(over.retry)) {
    const retry: Json = { ...from.retry, ...over.retry };
    if (isPlainObject(from.retry.backoff) && isPlainObject(over.retry.backoff)) retry.backoff = { ...from.retry.backoff, ...over.retry.backoff };
    merged.retry = retry;
  }
  if (hasOwn(own, 'providerData') && isPlainObject(from.providerData) && isPlainObject(over.providerData)) {
    merged.providerData = mergeProviderData(from.providerData, over.providerData);
  }
  return merged as ModelSettings;
}

/** Provider data merged key by key; the transport override maps merge too, across their two spellings. */
function mergeProviderData(inherited: Json, own: Json): Json {
  const merged: Json = { ...inherited, ...own };
  for (const aliases of TRANSPORT_ALIASES) {
    for (const key of aliases) if (isPlainObject(inherited[key]) && isPlainObject(own[key])) merged[key] = { ...inherited[key], ...own[key] };
  }
  for (const [snake, camel] of TRANSPORT_ALIASES) {
    const fromInherited = aliasMap(inherited, snake, camel);
    const fromOwn = aliasMap(own, snake, camel);
    if (!fromInherited || !fromOwn) continue;
    const map = { ...fromInherited, ...fromOwn };
    for (const key of [snake, camel]) if (hasOwn(inherited, key) || hasOwn(own, key)) merged[key] = map;
  }
  return merged;
}

function aliasMap(data: Json, snake: string, camel: string): Json | undefined {
  const first = data[snake];
  const second = data[camel];
  if (first === undefined && second === undefined) return undefined;
  if ((first !== undefined && !isPlainObject(first)) || (second !== undefined && !isPlainObject(second))) return undefined;
  return { ...(first as Json | undefined), ...(second as Json | undefined) };
}
