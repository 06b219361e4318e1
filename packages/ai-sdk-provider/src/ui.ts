// The `@baton/ai-sdk-provider/ui` entry (the reference's `@openai/agents-extensions/ai-sdk-ui`).
export * from './ui/index.js';
