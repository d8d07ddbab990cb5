#!/usr/bin/env node
// Builds the web app only when its sources changed since the last build, so `npm start` is quick
// after the first time. The fingerprint of every input file is kept beside the build.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each text file of the build, once, at build time:
 * the server sends them as they are to browsers that accept them, with no compression per request.
 */
function precompress(folder) {
  let saved = 0;
  for (const file of files(folder)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    const brotli = brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
    const gzip = gzipSync(content, { level: 9 });
    if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    saved += content.length - brotli.length;
  }
  return saved;
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
  precompress(dist);
  writeFileSync(stampFile, `${fingerprint}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildWebIfNeeded({ force: process.argv.includes('--force') });
}
