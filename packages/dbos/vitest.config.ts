import { defineProject } from 'vitest/config';

// Real PostgreSQL and worker processes: slow hooks, and one file at a time per worker pool.
export default defineProject({
  test: { include: ['test/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 },
});
