#!/usr/bin/env node
// Starts the real product for the browser tests: a fresh database, the sandbox, demo accounts.
// The database is a throwaway one on the PostgreSQL server DATABASE_URL points at when it is set (as in CI: a native
// server spends far less CPU than the embedded one, which the browser tests share two cores with), else a fresh
// embedded folder. E2E_DATABASE=pglite keeps the embedded one whatever the shell points at.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ce-e2e-'));
const port = process.env.E2E_PORT ?? '3107';
const oidcPort = process.env.E2E_OIDC_PORT ?? '3108';

/** A database of its own on the server `base` names, and how to drop it. */
async function scratchDatabase(base) {
  const name = `ce_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
  return { url: url.toString(), drop };
}

const { DATABASE_URL: shellDatabase, ...env } = process.env;
const database =
  shellDatabase && process.env.E2E_DATABASE !== 'pglite' ? await scratchDatabase(shellDatabase) : undefined;

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...env,
    // On PostgreSQL the keys come from the environment (the embedded default makes its own files): fresh ones.
    ...(database
      ? {
          DATABASE_URL: database.url,
          REPORTS_KEY: randomBytes(32).toString('base64'),
          COOKIE_SECRET: randomBytes(32).toString('hex'),
          DEMO_MODE: 'true',
        }
      : {}),
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
    // The watch's browser test runs one watch now twice in a minute; the spacing has an integration test of its own.
    WATCH_RUN_NOW_EVERY_MINUTES: '0',
    // A message Webex keeps refusing is given up within seconds, so a test can see it told (the default is 6 h).
    WEBEX_RETRY_FIRST_MS: '1000',
    WEBEX_GIVE_UP_MS: '4000',
    // The sandbox bot's token, known to the specs that make a Webex room for a watch (e2e/watch-helpers.ts).
    WEBEX_BOT_TOKEN: 'e2e-sandbox-webex-bot-token',
  },
});
const cleanUp = async () => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(`${dataDir}.keys`, { recursive: true, force: true });
  await database?.drop().catch((error) => console.error(`The browser tests' database was not dropped: ${error}`));
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', async (code) => {
  await cleanUp();
  process.exit(code ?? 0);
});
