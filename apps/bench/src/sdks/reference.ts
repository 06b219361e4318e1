import { makeAdapter } from './sdkAdapter.js';

export const adapter = makeAdapter(await import('@openai/agents'), 'reference');
