import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Integration tests whose answers depend on the date: they take a fixed clock (TEST_CLOCK, read by
 * `testClock()` in build-test-app.ts) and run twice, just after and just before midnight UTC, so the
 * suite passes at any hour of any day.
 */
const DATE_SENSITIVE = ['apps/server/test/health-check.int.test.ts', 'apps/server/test/tam-activity.int.test.ts'];
/** Unit files that replace a module (vi.mock): they need a fresh module graph, so a worker of their own each. */
const MOCKS_MODULES = ['apps/server/src/core/same-secret.test.ts'];
const UNIT = ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * Files that time the event loop or a response (a health probe while an archive unpacks, hostile uploads, a
 * sign-in's timing against user enumeration): they run in a fresh worker each, away from the heap other files
 * leave behind in a shared one (measured: a shared worker made /healthz answer in 289-373 ms, over its 200).
 */
const TIMED = [
  'apps/server/test/backups-hostile.int.test.ts',
  'apps/server/test/tracker-hostile.int.test.ts',
  'apps/server/test/pcap.int.test.ts',
  'apps/server/test/identity.int.test.ts',
  'apps/server/test/uploads.int.test.ts',
];
/**
 * `npm test` runs the unit and web tests at the idle CPU priority beside the browser tests (TEST_SIDE_LANE=1): a
 * test may wait there for a core while the browser tests hold both, so its limits count waiting too.
 */
const SIDE_LANE = process.env.TEST_SIDE_LANE === '1';
const quickLimits = { testTimeout: SIDE_LANE ? 120_000 : 15_000, hookTimeout: SIDE_LANE ? 240_000 : 60_000 };
const CLOCKS = {
  'after-midnight': '2026-12-01T00:00:05Z',
  'before-midnight': '2026-11-30T23:59:40Z',
};
/**
 * One migrated PGlite for every test app of the run to start from; the server and the sandbox bundled once, for
 * the suites that start them as processes.
 */
const GLOBAL_SETUP: string[] = [
  'apps/server/test/support/pglite-snapshot.ts',
  'apps/server/test/support/bundle-setup.ts',
];
const integration = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 120_000,
  globalSetup: GLOBAL_SETUP,
} as const;

export default defineConfig({
  test: {
    // PGlite and pg-boss per integration file: keep memory and the two cores in check.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...MOCKS_MODULES],
          // A suite's set-up (parsing the vendor's document) takes a few seconds of its own.
          ...quickLimits,
          environment: 'node',
          // A worker's files share its loaded modules (measured: 32 s of CPU to 13 s); each test builds what it uses.
          isolate: false,
        },
      },
      { test: { name: 'unit-isolated', include: MOCKS_MODULES, ...quickLimits, environment: 'node' } },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          ...(SIDE_LANE ? quickLimits : {}),
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test-setup.ts'],
          // A worker's files share one document and their loaded modules (measured: 63 s of CPU to 10 s); every
          // test starts from an empty document (test-setup.ts), and the files pass in any order (--sequence.shuffle).
          isolate: false,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.int.test.ts', 'packages/*/test/**/*.int.test.ts'],
          exclude: [...configDefaults.exclude, ...DATE_SENSITIVE, ...TIMED],
          ...integration,
          // The files of a worker share its loaded modules (about a third less CPU than loading them per file);
          // each file still builds its own apps, and an app closes its queue before its database (JobQueue.stop).
          isolate: false,
        },
      },
      { test: { name: 'integration-timed', include: TIMED, ...integration } },
      ...Object.entries(CLOCKS).map(([name, clock]) => ({
        test: { name: `integration-${name}`, include: DATE_SENSITIVE, env: { TEST_CLOCK: clock }, ...integration },
      })),
    ],
  },
});
