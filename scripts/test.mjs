#!/usr/bin/env node
// `npm test`: every test, tier by tier: the static checks (lint, format, typecheck side by side), unit,
// integration (PGlite, and PostgreSQL when DATABASE_URL is set), the web build, then the browser tests in Chromium.
// Stops at the first failing tier and prints each tier's time (and each command's, in a shared tier) at the end.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const bin = (name) => path.join(root, 'node_modules/.bin', name);
/**
 * Integration files spend most of their time waiting (rate windows, leases, child processes), not computing:
 * more of them than cores run side by side. TEST_INTEGRATION_WORKERS overrides the count.
 */
const integrationWorkers = process.env.TEST_INTEGRATION_WORKERS ?? '4';

if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}; the browser tests need it.\n` +
      'Install it with:  sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)',
  );
  process.exit(1);
}

const command = (name, file, args) => ({ name, file, args });

/** Tiers run one after the other; the commands of one tier run side by side. */
const tiers = [
  {
    name: 'static checks',
    commands: [
      command('lint', bin('eslint'), ['--max-warnings=0', '.']),
      command('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
      command('typecheck', process.execPath, [path.join(root, 'scripts/typecheck.mjs')]),
    ],
  },
  { name: 'unit', commands: [command('unit', bin('vitest'), ['run', '--project', 'unit', '--project', 'web'])] },
  {
    name: 'integration',
    commands: [
      command('integration', bin('vitest'), ['run', '--project', 'integration*', `--maxWorkers=${integrationWorkers}`]),
    ],
  },
  { name: 'build', build: true },
  { name: 'browser', commands: [command('browser', bin('playwright'), ['test'])] },
];

/** Runs one command; beside others its output is kept and printed whole when it ends. */
function run({ name, file, args }, alone) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: root,
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CHROMIUM_PATH: chromium },
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = (Date.now() - started) / 1000;
      if (!alone) {
        console.log(`\n--- ${name} (${seconds.toFixed(1)} s) ---`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, ok: code === 0, exit: code ?? signal, seconds });
    });
  });
}

console.log(`Node.js ${process.version} (${process.execPath})`);
console.log(
  process.env.DATABASE_URL
    ? 'Integration tests run on PGlite and on PostgreSQL (DATABASE_URL is set).'
    : 'Integration tests run on PGlite only (set DATABASE_URL to also run them on PostgreSQL).',
);

const times = [];
const started = Date.now();
const summary = () => {
  console.log('\nTime per tier:');
  const line = (name, seconds, failed) =>
    console.log(`  ${name.padEnd(24)} ${seconds.toFixed(1).padStart(7)} s${failed ? '  FAILED' : ''}`);
  for (const { name, seconds, ok, results } of times) {
    line(name, seconds, !ok);
    if (results?.length > 1) for (const result of results) line(`  ${result.name}`, result.seconds, !result.ok);
  }
  line('total', (Date.now() - started) / 1000, false);
};

for (const tier of tiers) {
  console.log(`\n=== ${tier.name} ===`);
  const tierStart = Date.now();
  let failed = [];
  let results = [];
  if (tier.build) {
    buildWebIfNeeded();
  } else {
    results = await Promise.all(tier.commands.map((each) => run(each, tier.commands.length === 1)));
    failed = results.filter((result) => !result.ok);
    for (const { name, exit } of failed) console.error(`\n${name} failed (exit ${exit}).`);
  }
  times.push({ name: tier.name, seconds: (Date.now() - tierStart) / 1000, ok: failed.length === 0, results });
  if (failed.length > 0) {
    summary();
    process.exit(1);
  }
  console.log(`--- ${tier.name} passed in ${((Date.now() - tierStart) / 1000).toFixed(1)} s`);
}
summary();
console.log(`\nAll test tiers passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
