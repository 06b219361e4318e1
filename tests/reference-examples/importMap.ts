// How a program written for the reference is moved to Baton: each import of an @openai package and
// the Baton module that replaces it (docs/guide/migration.md states the same table). The examples
// check rewrites the reference's example programs with this map before type-checking them on Baton.
export const batonImportFor: Readonly<Record<string, string>> = {
  '@openai/agents': '@baton/agents',
  '@openai/agents/testing': '@baton/agents/testing',
  '@openai/agents-core': '@baton/core',
  '@openai/agents-core/extensions': '@baton/handoffs',
  '@openai/agents-openai': '@baton/openai-provider',
  '@openai/agents-openai/experimental/hosted-multi-agent': '@baton/openai-provider/experimental/hosted-multi-agent',
  '@openai/agents-extensions/ai-sdk': '@baton/ai-sdk-provider',
  '@openai/agents-extensions/ai-sdk-ui': '@baton/ai-sdk-provider/ui',
  '@openai/agents-extensions/experimental/codex': '@baton/codex',
};

/** Reference modules Baton has no counterpart for, each with the reason (an example importing one is left out). */
export const withoutCounterpart: Readonly<Record<string, string>> = {
  '@openai/agents/realtime': 'realtime voice agents are out of scope',
  '@openai/agents/realtime/testing': 'realtime voice agents are out of scope',
  '@openai/agents-realtime': 'realtime voice agents are out of scope',
  '@openai/agents-extensions': 'its root entry holds the realtime transports (Twilio, Cloudflare): realtime is out of scope',
  '@openai/agents/sandbox': 'sandboxes are out of scope',
  '@openai/agents/sandbox/local': 'sandboxes are out of scope',
  '@openai/agents-core/_shims': "the reference's internal runtime shims, not a public entry (node:crypto's randomUUID does the same)",
};

/** The example folders left out whole, with the reason. */
export const foldersLeftOut: Readonly<Record<string, string>> = {
  'realtime-demo': 'realtime voice agents are out of scope',
  'realtime-next': 'realtime voice agents are out of scope',
  'realtime-react-native': 'realtime voice agents are out of scope',
  'realtime-twilio': 'realtime voice agents are out of scope',
  'realtime-twilio-sip': 'realtime voice agents are out of scope',
  sandbox: 'sandboxes are out of scope',
};
