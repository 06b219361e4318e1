import { defineProject } from 'vitest/config';

// A real PostgreSQL and worker processes: slow, so generous timeouts.
export default defineProject({
  test: { include: ['test/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 },
});
