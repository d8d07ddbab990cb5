#!/usr/bin/env node
// Builds the web app only when its sources changed since the last build, so `npm start` is quick
// after the first time. The fingerprint of every input file is kept beside the build.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const dist = path.join(web, 'dist');
const stampFile = path.join(dist, '.build-stamp');
const inputs = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages/contract/src'),
  path.join(root, 'package-lock.json'),
];

function* files(entry) {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* files(path.join(entry, name));
  } else {
    yield entry;
  }
}

export function webFingerprint() {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of files(input)) {
      hash.update(path.relative(root, file));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

export function buildWebIfNeeded({ force = false } = {}) {
  const fingerprint = webFingerprint();
  const current = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
  if (!force && current === fingerprint && existsSync(path.join(dist, 'index.html'))) return false;
  console.log('Building the web app…');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: web,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) {
    console.error('The web app did not build (see above).');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, `${fingerprint}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildWebIfNeeded({ force: process.argv.includes('--force') });
}
