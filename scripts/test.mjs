#!/usr/bin/env node
// `npm test`: every test, in order: lint, typecheck, unit, integration (PGlite, and PostgreSQL when
// DATABASE_URL is set), then the browser tests in Chromium. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const bin = (name) => path.join(root, 'node_modules/.bin', name);

if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}; the browser tests need it.\n` +
      'Install it with:  sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)',
  );
  process.exit(1);
}

const steps = [
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['typecheck', process.execPath, [path.join(root, 'scripts/typecheck.mjs')]],
  ['unit and integration', bin('vitest'), ['run']],
  ['build', null, []],
  ['browser', bin('playwright'), ['test']],
];

console.log(`Node.js ${process.version} (${process.execPath})`);
console.log(
  process.env.DATABASE_URL
    ? 'Integration tests run on PGlite and on PostgreSQL (DATABASE_URL is set).'
    : 'Integration tests run on PGlite only (set DATABASE_URL to also run them on PostgreSQL).',
);

const started = Date.now();
for (const [name, command, args] of steps) {
  const stepStart = Date.now();
  console.log(`\n=== ${name} ===`);
  if (command === null) {
    buildWebIfNeeded();
  } else {
    const result = spawnSync(command, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, CHROMIUM_PATH: chromium },
    });
    if (result.status !== 0) {
      console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
      process.exit(result.status || 1);
    }
  }
  console.log(`--- ${name} passed in ${((Date.now() - stepStart) / 1000).toFixed(1)} s`);
}
console.log(`\nAll test steps passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
