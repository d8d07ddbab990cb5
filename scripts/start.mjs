#!/usr/bin/env node
// `npm start`: build the web app if its sources changed, then run the server on the embedded
// defaults (PGlite under ./data, the job queue, the sandbox, demo accounts) unless configured otherwise.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfNeeded } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildWebIfNeeded();

// Node 20's young generation (decision 0029): Node 24 sizes it from the machine's memory, 100+ MB more per process.
const server = spawn(
  process.execPath,
  ['--max-semi-space-size=16', '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
