#!/usr/bin/env node
// Type-checks every workspace with its own tsconfig (the web app has DOM types, the server has not), with
// TypeScript 7, the native compiler (`typescript-native` in package.json): about a quarter of TypeScript 5's CPU time
// for the same diagnostics. TypeScript 5 stays for what needs its JavaScript API (typescript-eslint's typed rules).
// See docs/decisions/0034-typescript-7-checks-types.md.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules/typescript-native/bin/tsc');
const projects = ['packages/contract', 'packages/platform-client', 'packages/sandbox', 'apps/server', 'apps/web', '.'];
let failed = false;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
