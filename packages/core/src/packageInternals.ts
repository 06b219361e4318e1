/**
 * `@baton/core/internal`: what Baton's own packages (hitl-state, handoffs, ...) need from core
 * beyond its public API. No stability promise, and not re-exported by `@baton/agents`.
 */
export { buildAgentIdentityMap, walkAgentGraph, type AgentIdentityMap } from './internal/serialization/identity.js';
export { agentToolSourceAgent } from './internal/agentToolSources.js';
export { parametersFingerprint } from './internal/serialization/fingerprint.js';
export { compileSchema, isStandardSchema, type CompiledSchema } from './internal/schema.js';
export {
  typeName,
  requireOptions,
  requireFunction,
  optionalFunction,
  requireBooleanOrFunction,
  requireArray,
  requireNonEmptyString,
  optionalNonEmptyString,
  optionalString,
  optionalBoolean,
  optionalPositiveNumber,
  positiveInteger,
} from './internal/validate.js';
export { installRunTracing, installedRunTracing, type RunTracing, type RunTrace, type RunTraceSettings, type SerializedTrace } from './runTracing.js';
export { InitialSpanAttributes } from './internal/loop/span.js';
export { retryAfterFromHeaders } from './internal/loop/modelRetry.js';
