#!/usr/bin/env node
// Starts the real product for the browser tests: a fresh data folder, the sandbox, demo accounts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-e2e-'));
const port = process.env.E2E_PORT ?? '3107';
const oidcPort = process.env.E2E_OIDC_PORT ?? '3108';
// The browser tests always run on a fresh embedded database, whatever the shell points at.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...env,
    PORT: port,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    // The SSO browser test starts an OpenID provider at this address itself; discovery is lazy.
    OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
    OIDC_CLIENT_ID: 'ce-toolkit-e2e',
    OIDC_CLIENT_SECRET: 'e2e-client-secret-not-for-production',
    OIDC_ALLOW_INSECURE: 'true',
    // Every browser test signs in from 127.0.0.1; the per-address limit has an integration test of its own.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000',
  },
});
const cleanUp = () => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.keys`, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
