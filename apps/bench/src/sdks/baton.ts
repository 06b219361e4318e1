import { makeAdapter, type AgentsSdk } from './sdkAdapter.js';

// Baton given where the reference's module is expected: the same bench program runs on it.
export const adapter = makeAdapter((await import('@baton/agents')) as unknown as AgentsSdk, 'baton');
