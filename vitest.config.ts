import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Files share one Docker engine on a 2-core machine; two at a time keeps timings honest.
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
  },
});
