#!/usr/bin/env node
// `npm test`: every test, in two lanes.
// - The main lane, one tier after the other: integration (PGlite, and PostgreSQL when DATABASE_URL is set), the web
//   build, then the browser tests in Chromium.
// - Beside the browser tier, at the idle CPU priority (SCHED_IDLE: it runs only on a core nothing else wants, and
//   leaves it the moment a test wakes): the static checks (lint, format, typecheck side by side), then the unit
//   tests (with longer limits: a test may wait for a core). Measured on this 2-core machine, the browser tier beside
//   them: 449 s against 515 s under nice(1) in one A/B run (341 s alone), but 489-542 s in clean-clone CI runs,
//   within their run-to-run spread of about 40 s. Not beside integration, which keeps both cores busy: with
//   the static checks beside it its files slowed two- and threefold and missed their timeouts; with the unit tests
//   beside it, it took 485 s against 475 s without them the same evening: nothing gained.
// The first failure stops everything; each tier's time (and each command's, in a shared tier) is printed at the end.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The browser tests' browser: Debian's headless shell when installed (a third less CPU), else its Chromium. */
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
/**
 * Integration files spend much of their time waiting (rate windows, leases, child processes), not computing:
 * more of them than cores run side by side. TEST_INTEGRATION_WORKERS overrides the count.
 */
const integrationWorkers = process.env.TEST_INTEGRATION_WORKERS ?? '4';
/**
 * How the side lane steps aside: SCHED_IDLE through chrt(1) (util-linux, on every Debian), else nice(1) at
 * TEST_SIDE_NICE steps (also when that is set).
 */
const chrt = ['/usr/bin/chrt', '/bin/chrt'].find((file) => existsSync(file));
const sideNice = process.env.TEST_SIDE_NICE;
const stepAside = (file, args) =>
  chrt && sideNice === undefined
    ? [chrt, ['--idle', '0', file, ...args]]
    : ['nice', ['-n', sideNice ?? '10', file, ...args]];

if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}; the browser tests need it.\n` +
      'Install it with:  sudo apt-get install -y chromium-headless-shell   (or set CHROMIUM_PATH to a Chromium binary)',
  );
  process.exit(1);
}

const command = (name, file, args) => ({ name, file, args });
/**
 * A Vitest command. Node 24's V8 can abort a process that opens and closes many PGlite engines
 * (`Check failed: jit_page_->allocations_.erase(addr) == 1`, nodejs/node#64500): it is rare, and not ours to fix.
 * So when a run's only fault is a dead worker (no test failed, every unhandled error is a worker that exited), the
 * files it left unfinished run once more, by themselves, and the log says so; any other failure fails the tier.
 */
const vitest = (name, args) => ({ ...command(name, bin('vitest'), args), retriesUnfinished: true });

const staticChecks = {
  name: 'static checks',
  commands: [
    command('lint', bin('eslint'), ['--max-warnings=0', '.']),
    command('lint with types', bin('oxlint'), ['--type-aware', '--max-warnings=0']),
    command('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
    command('typecheck', process.execPath, [path.join(root, 'scripts/typecheck.mjs')]),
  ],
};
const unit = {
  name: 'unit',
  commands: [{ ...vitest('unit', ['run', '--project', 'unit*', '--project', 'web']), env: { TEST_SIDE_LANE: '1' } }],
};
const integration = {
  name: 'integration',
  commands: [vitest('integration', ['run', '--project', 'integration*', `--maxWorkers=${integrationWorkers}`])],
};
const browser = { name: 'browser', commands: [command('browser', bin('playwright'), ['test'])] };

const children = new Set();
let stopping = false;

/** Runs one command; in the side lane, or beside others, its output is kept and printed whole when it ends. */
async function run(each, options) {
  if (!each.retriesUnfinished) return runOnce(each, options);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ce-test-'));
  try {
    const report = path.join(folder, 'unfinished.json');
    const reporters = ['--reporter=default', `--reporter=${path.join(root, 'scripts/unfinished-reporter.mjs')}`];
    const env = { ...each.env, UNFINISHED_REPORT: report };
    const first = await runOnce({ ...each, args: [...each.args, ...reporters], env }, options);
    const unfinished = first.ok || stopping ? [] : onlyWorkersDied(report);
    if (unfinished.length === 0) return first;
    console.log(
      `\n!!! ${each.name}: a test worker died (no test failed); its unfinished files run once more:\n` +
        unfinished.map(({ project, file }) => `    [${project}] ${path.relative(root, file)}`).join('\n'),
    );
    const byProject = Map.groupBy(unfinished, ({ project }) => project);
    let again = first;
    for (const [project, files] of byProject) {
      rmSync(report, { force: true });
      const args = ['run', '--project', project, ...files.map(({ file }) => file)];
      again = await runOnce({ ...each, args: [...args, ...reporters], env }, options);
      if (!again.ok) break;
    }
    return { ...again, seconds: first.seconds + again.seconds };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The files a failed Vitest run left unfinished, when a dead worker is all that went wrong; otherwise none. */
function onlyWorkersDied(report) {
  if (!existsSync(report)) return [];
  const { failedTests, unfinished, unhandledErrors } = JSON.parse(readFileSync(report, 'utf8'));
  const workerDied = (message) => message.includes('Worker exited unexpectedly');
  return failedTests === 0 && unhandledErrors.length > 0 && unhandledErrors.every(workerDied) ? unfinished : [];
}

function runOnce({ name, file, args, env = {} }, { alone, nice }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const [program, programArgs] = nice ? stepAside(file, args) : [file, args];
    const child = spawn(program, programArgs, {
      cwd: root,
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CHROMIUM_PATH: chromium, ...env },
      detached: true,
    });
    children.add(child);
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = (Date.now() - started) / 1000;
      if (!alone && !stopping) {
        console.log(`\n--- ${name} (${seconds.toFixed(1)} s) ---`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, ok: code === 0, exit: code ?? signal, seconds });
    });
  });
}

const times = [];
const started = Date.now();
const summary = () => {
  console.log('\nTime per tier (the two lanes ran at once):');
  const line = (name, seconds, failed) =>
    console.log(`  ${name.padEnd(26)} ${seconds.toFixed(1).padStart(7)} s${failed ? '  FAILED' : ''}`);
  for (const { name, seconds, ok, results } of times) {
    line(name, seconds, !ok);
    if (results?.length > 1) for (const result of results) line(`  ${result.name}`, result.seconds, !result.ok);
  }
  line('total', (Date.now() - started) / 1000, false);
};

/**
 * Ends every command still running and exits failed. Each command leads its own process group; SIGINT lets
 * Playwright stop the product it started (its web server runs in a group of its own), then whatever is left of
 * a group after 15 s is killed.
 */
let stopped;
function stopAll() {
  // Every caller waits for the one stop, which ends the process.
  stopped ??= stopEverything();
  return stopped;
}

async function stopEverything() {
  stopping = true;
  const signal = (name) => {
    for (const child of children) {
      try {
        process.kill(-child.pid, name);
      } catch {
        // It ended meanwhile.
      }
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + 15_000;
  while (children.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  signal('SIGKILL');
  summary();
  process.exit(1);
}

async function runTier(tier, { lane, nice = false }) {
  // Once stopping, no tier starts (one would outlive the stop: its processes were not there to be signalled).
  if (stopping) return;
  const tierStart = Date.now();
  console.log(`\n=== ${tier.name} (${lane} lane) ===`);
  let results = [];
  if (tier.build) buildWebIfNeeded();
  else
    results = await Promise.all(
      tier.commands.map((each) => run(each, { alone: !nice && tier.commands.length === 1, nice })),
    );
  if (stopping) return;
  const failed = results.filter((result) => !result.ok);
  const seconds = (Date.now() - tierStart) / 1000;
  times.push({ name: `${tier.name}${nice ? ' (beside)' : ''}`, seconds, ok: failed.length === 0, results });
  for (const { name, exit } of failed) console.error(`\n${name} failed (exit ${exit}).`);
  if (failed.length > 0) await stopAll();
  console.log(`--- ${tier.name} passed in ${seconds.toFixed(1)} s`);
}

console.log(`Node.js ${process.version} (${process.execPath})`);
console.log(
  process.env.DATABASE_URL
    ? 'Integration tests run on PGlite and on PostgreSQL (DATABASE_URL is set).'
    : 'Integration tests run on PGlite only (set DATABASE_URL to also run them on PostgreSQL).',
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stopAll());

let browserBegan;
const reachedBrowser = new Promise((resolve) => (browserBegan = resolve));
const mainLane = (async () => {
  await runTier(integration, { lane: 'main' });
  await runTier({ name: 'build', build: true }, { lane: 'main' });
  browserBegan();
  await runTier(browser, { lane: 'main' });
})();
const sideLane = (async () => {
  await reachedBrowser;
  await runTier(staticChecks, { lane: 'side', nice: true });
  await runTier(unit, { lane: 'side', nice: true });
})();
await Promise.all([mainLane, sideLane]);
summary();
console.log(`\nAll test tiers passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
