import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['test/**/*.test.ts'],
    // Installs Debian's chromium when it is missing (as root), before the browser test starts.
    globalSetup: ['./test/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
