import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteSnapshot } from '../../src/core/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated in-memory PGlite (`createTestApp` starts each PGlite app from it). */
    pgliteSnapshot: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../../..');
const migrations = path.join(root, 'apps/server/migrations');

/** What the snapshot is made of: the migrations and the PGlite release that ran them. */
function fingerprint(): string {
  const hash = createHash('sha256');
  const pglite = path.join(root, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(readFileSync(pglite));
  for (const folder of [migrations, path.join(migrations, 'meta')]) {
    for (const name of readdirSync(folder).sort()) {
      if (!name.endsWith('.sql') && !name.endsWith('.json')) continue;
      hash.update(name).update(readFileSync(path.join(folder, name)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Vitest's global set-up of the integration projects: a migrated PGlite dumped once (kept in the system's
 * temporary folder under its migrations' fingerprint, so later runs reuse it) for every test app to start from.
 */
export default async function setup(project: TestProject): Promise<void> {
  const file = path.join(os.tmpdir(), `ce-pglite-${fingerprint()}.tar`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await (await pgliteSnapshot()).arrayBuffer()));
    await rename(partial, file);
  }
  project.provide('pgliteSnapshot', file);
}
