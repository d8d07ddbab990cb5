#!/usr/bin/env node
// Type-checks every workspace with its own tsconfig (the web app has DOM types, the server has not).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const projects = ['packages/contract', 'packages/platform-client', 'packages/sandbox', 'apps/server', 'apps/web', '.'];
let failed = false;
for (const project of projects) {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', project],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
