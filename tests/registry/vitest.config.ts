import { defineProject } from 'vitest/config';

export default defineProject({
  // registry.test.ts starts a local registry, publishes every package to it and runs `npm install`,
  // `tsc` (skipLibCheck: false) and the READMEs' code in fresh projects: minutes on a busy 2-core machine.
  test: { include: ['test/**/*.test.ts'], testTimeout: 1_200_000, hookTimeout: 1_200_000 },
});
