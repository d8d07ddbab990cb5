import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3107);

/**
 * The browser: CHROMIUM_PATH, else Debian's headless shell (package chromium-headless-shell: the same Blink and V8
 * without the desktop browser around them; measured, a third less CPU for the same specs), else Debian's Chromium.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * The order the spec files are queued in. Every test has its own sandbox organizations (and, where it counts
 * what a user has, its own user), so any order must pass: CI shuffles it with a fresh seed each run, printed so a
 * failure can be replayed with `E2E_SHUFFLE=<seed>`. Locally the order is the files' names unless E2E_SHUFFLE is
 * set (`random` for a fresh seed; `off` in CI for the names' order).
 */
function specOrder(): string[] {
  const files = readdirSync('e2e')
    .filter((name) => name.endsWith('.spec.ts'))
    .sort();
  let seed = process.env.E2E_SHUFFLE ?? (process.env.CI ? 'random' : 'off');
  if (seed === 'off') return files;
  if (seed === 'random') {
    seed = String(Math.floor(Math.random() * 2 ** 31));
    // The workers read this file again: they must see the same seed, so the same order.
    process.env.E2E_SHUFFLE = seed;
  }
  if (process.env.TEST_WORKER_INDEX === undefined)
    console.log(`Spec order shuffled with E2E_SHUFFLE=${seed} (set it to replay this order)`);
  // A small seeded generator (mulberry32) and a Fisher-Yates shuffle: the same seed gives the same order.
  let state = Number(seed) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...files];
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1));
    [shuffled[index], shuffled[other]] = [shuffled[other] as string, shuffled[index] as string];
  }
  return shuffled;
}

/**
 * The shuffled files in a few projects, queued one after the other. Playwright starts a new worker (and a new
 * Chromium) whenever the next test belongs to another project, so one project per file would start about fifty;
 * within a project its files run in their names' order, spread over the workers.
 */
const PROJECTS = 4;
function projects(): { name: string; testMatch: string[] }[] {
  const files = specOrder();
  const size = Math.ceil(files.length / PROJECTS);
  return Array.from({ length: Math.ceil(files.length / size) }, (_, index) => ({
    name: `part-${index + 1}`,
    testMatch: files.slice(index * size, (index + 1) * size),
  }));
}

export default defineConfig({
  testDir: 'e2e',
  projects: projects(),
  fullyParallel: true,
  // Measured on this 2-core machine (whole suite, shuffled): 2 workers were faster and steadier than 3.
  workers: 2,
  retries: 0,
  // Workers share two cores: a test, and each of its steps, takes longer than alone.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // Every page of the site in one renderer process, which the tests' warm context keeps (e2e/fixtures.ts).
        '--process-per-site',
      ],
    },
    trace: 'off',
    // As a person who asks for less motion: nothing turns while a test waits (spinners cost CPU at every frame).
    reducedMotion: 'reduce',
  },
  webServer: {
    command: 'node e2e/start-test-server.mjs',
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { E2E_PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
