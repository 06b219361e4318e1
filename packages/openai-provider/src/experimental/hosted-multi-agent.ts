/**
 * `@baton/openai-provider/experimental/hosted-multi-agent`: the Responses API's hosted multi-agent
 * beta (the reference's `@openai/agents-openai/experimental/hosted-multi-agent`). Experimental: the
 * service's protocol may change.
 */
export type { HostedMultiAgentConfig } from './hostedMultiAgent/config.js';
export { getHostedAgentMetadata, type HostedAgentMetadata } from './hostedMultiAgent/metadata.js';
export { OpenAIHostedMultiAgentModel } from './hostedMultiAgent/model.js';
