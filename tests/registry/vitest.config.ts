import { defineProject } from 'vitest/config';

export default defineProject({
  // Each file starts a local registry, publishes packages to it and runs `npm install` and
  // `tsc` (skipLibCheck: false) in fresh projects: minutes each on a busy 2-core machine.
  test: { include: ['test/**/*.test.ts'], testTimeout: 1_200_000, hookTimeout: 1_200_000 },
});
