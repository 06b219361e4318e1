import { defineProject } from 'vitest/config';

export default defineProject({
  // Packs tarballs and runs `npm install` into a fresh project: slow on a cold npm cache.
  test: { include: ['test/**/*.test.ts'], testTimeout: 240_000, hookTimeout: 240_000 },
});
