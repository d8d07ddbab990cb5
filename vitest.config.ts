import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Integration tests whose answers depend on the date: they take a fixed clock (TEST_CLOCK, read by
 * `testClock()` in build-test-app.ts) and run twice, just after and just before midnight UTC, so the
 * suite passes at any hour of any day.
 */
const DATE_SENSITIVE = ['apps/server/test/health-check.int.test.ts', 'apps/server/test/tam-activity.int.test.ts'];
const CLOCKS = {
  'after-midnight': '2026-12-01T00:00:05Z',
  'before-midnight': '2026-11-30T23:59:40Z',
};
const integration = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // One migrated PGlite for every test app of the run to start from.
  globalSetup: 'apps/server/test/support/pglite-snapshot.ts',
} as const;

export default defineConfig({
  test: {
    // PGlite and pg-boss per integration file: keep memory and the two cores in check.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 15_000,
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.int.test.ts', 'packages/*/test/**/*.int.test.ts'],
          exclude: [...configDefaults.exclude, ...DATE_SENSITIVE],
          ...integration,
        },
      },
      ...Object.entries(CLOCKS).map(([name, clock]) => ({
        test: { name: `integration-${name}`, include: DATE_SENSITIVE, env: { TEST_CLOCK: clock }, ...integration },
      })),
    ],
  },
});
