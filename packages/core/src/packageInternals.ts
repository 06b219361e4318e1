/**
 * `@baton/core/internal`: what Baton's own packages (hitl-state, handoffs, ...) need from core
 * beyond its public API. No stability promise, and not re-exported by `@baton/agents`.
 */
export { buildAgentIdentityMap, walkAgentGraph, type AgentIdentityMap } from './state/internal/serialization/identity.js';
export { agentToolSourceAgent } from './definitions/internal/agentToolSources.js';
export { parametersFingerprint } from './state/internal/serialization/fingerprint.js';
export { compileSchema, isStandardSchema, type CompiledSchema } from './definitions/internal/schema.js';
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
} from './definitions/internal/validate.js';
export { installRunTracing, installedRunTracing, type RunTracing, type RunTrace, type RunTraceSettings, type SerializedTrace } from './definitions/runTracing.js';
export { InitialSpanAttributes } from './engine/internal/loop/span.js';
export { retryAfterFromHeaders } from './engine/internal/loop/modelRetry.js';
export { ExternalFailure } from './engine/internal/failures.js';
export { hostedMcpApprovalIdentity, hostedMcpApprovalKey } from './definitions/internal/hostedMcpApprovalKey.js';
