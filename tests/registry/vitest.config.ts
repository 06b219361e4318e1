import { defineProject } from 'vitest/config';

export default defineProject({
  // Starts a local registry, publishes every package to it and runs `npm install` into fresh
  // projects: slow on a cold npm cache.
  test: { include: ['test/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 600_000 },
});
