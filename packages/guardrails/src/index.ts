export { defineInputGuardrail } from './defineInputGuardrail.js';
export type { DefineInputGuardrailOptions, InputGuardrailDefinition, InputGuardrailFunction } from './defineInputGuardrail.js';
export { defineOutputGuardrail } from './defineOutputGuardrail.js';
export type { DefineOutputGuardrailOptions, OutputGuardrailDefinition, OutputGuardrailFunction } from './defineOutputGuardrail.js';
export { defineToolInputGuardrail } from './defineToolInputGuardrail.js';
export type { DefineToolInputGuardrailOptions, ToolInputGuardrailDefinition, ToolInputGuardrailFunction } from './defineToolInputGuardrail.js';
export { defineToolOutputGuardrail } from './defineToolOutputGuardrail.js';
export type { DefineToolOutputGuardrailOptions, ToolOutputGuardrailDefinition, ToolOutputGuardrailFunction } from './defineToolOutputGuardrail.js';
export { ToolGuardrailFunctionOutputFactory } from './toolGuardrailFunctionOutputFactory.js';
export type { GuardrailReturn } from './internal/guardrailReturn.js';
export type { GuardedToolCall } from './internal/toolCallSubject.js';
export { guardrailFromAgent, outputGuardrailFromAgent } from './guardrailFromAgent.js';
export type { InputGuardrailFromAgentOptions, OutputGuardrailFromAgentOptions } from './guardrailFromAgent.js';
export { defineCheck } from './check.js';
export type {
  CheckDefinition,
  CheckInputGuardrailOptions,
  CheckOutputGuardrailOptions,
  CheckSource,
  CheckSubject,
  CheckToolInputGuardrailOptions,
  CheckToolOutputGuardrailOptions,
  CheckVerdict,
  GuardrailCheck,
} from './check.js';
export { secretsCheck, SECRET_KINDS } from './checks/secrets.js';
export type { SecretKind, SecretsCheckInfo, SecretsCheckOptions } from './checks/secrets.js';
export { piiCheck, PII_KINDS } from './checks/pii.js';
export type { PiiCheckInfo, PiiCheckOptions, PiiKind } from './checks/pii.js';
export { DEFAULT_MAX_INSPECTED_CHARS, TOO_LONG_TO_INSPECT } from './internal/inspectionLimit.js';
export { maxLengthCheck } from './checks/maxLength.js';
export type { MaxLengthCheckInfo, MaxLengthCheckOptions } from './checks/maxLength.js';
export { bannedTopicsCheck } from './checks/bannedTopics.js';
export type { BannedTopicsCheckInfo, BannedTopicsCheckOptions } from './checks/bannedTopics.js';
export { jsonSchemaCheck } from './checks/jsonSchema.js';
export type { JsonSchema, JsonSchemaCheckInfo, JsonSchemaCheckOptions, SchemaIssue } from './checks/jsonSchema.js';
export type { Finding } from './internal/findings.js';
export { blockSecrets } from './blockSecrets.js';
export type { BlockSecretsOptions } from './blockSecrets.js';
export { redactOutput } from './redactOutput.js';
export type { RedactOutputInfo, RedactOutputOptions } from './redactOutput.js';
export { resolveToolInputGuardrails, resolveToolOutputGuardrails } from './resolveToolGuardrails.js';
export { runToolInputGuardrails, runToolOutputGuardrails } from './runToolGuardrails.js';
export type { RunToolInputGuardrailsOptions, RunToolOutputGuardrailsOptions } from './runToolGuardrails.js';
