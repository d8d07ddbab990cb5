/**
 * What the benches that drive the real server in their own process share: the product on an in-memory
 * database with the large sandbox as the platform, listening on a free port, and a TAM signed in as the
 * browser would be.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/config.js';
import { signedInSession } from './http-session.js';

export async function startBenchApp(name: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `ce-bench-${name}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRETS_DIR: `${dataDir}.keys`,
    LOG_LEVEL: 'error',
    SANDBOX_SIZE: 'large',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
  });
  const { app, sandbox } = await buildApp(config, { database: { kind: 'pglite', dataDir: null } });
  if (!sandbox) throw new Error('the bench needs the embedded sandbox');
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  const call = await signedInSession(origin, 'tam@demo.local', config.demoPassword);
  return {
    origin,
    call,
    sandbox,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}.keys`, { recursive: true, force: true });
    },
  };
}
