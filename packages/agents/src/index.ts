/**
 * @baton/agents: everything under the names of `@openai/agents`, so a program written for it runs
 * against Baton by changing the import. The scripted model lives at `@baton/agents/testing`.
 */
export * from '@baton/core';
