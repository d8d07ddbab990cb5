import { once } from 'node:events';
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEntry } from './started-process.js';

/** Set by the integration run's global set-up: the folder holding the template (`data`, `data.keys`) once made. */
export const TEMPLATE_ENV = 'CE_TEST_DATA_DIR_TEMPLATE';

const READY = 'ready';
const FAILED = 'failed';

/**
 * A data folder as the product leaves it after its first start on an empty one (the embedded database created,
 * migrated and seeded with the demo accounts, the keys made beside it): the server bundle started once on an empty
 * folder, then stopped as an operator stops it. A suite that starts a server on an empty folder starts from a copy:
 * measured, 16.6 s of CPU to start on an empty folder, 6.6 s on one that exists. `data-dir.int.test.ts` keeps
 * proving the first start itself.
 */
export async function makeDataDirTemplate(folder: string): Promise<void> {
  try {
    const env = { ...process.env, DATA_DIR: path.join(folder, 'data'), PORT: '0', LOG_LEVEL: 'warn', DATABASE_URL: '' };
    const server = await startEntry('server', env, { name: "the template's server" });
    const exited = once(server.process, 'exit');
    const late = setTimeout(() => server.process.kill('SIGKILL'), 120_000);
    try {
      server.process.kill('SIGTERM');
      const [code] = await exited;
      if (code !== 0) throw new Error(`the template's server did not stop cleanly (${code}):\n${server.output()}`);
    } finally {
      clearTimeout(late);
    }
    writeFileSync(path.join(folder, READY), '');
  } catch (error) {
    writeFileSync(path.join(folder, FAILED), String(error));
  }
}

/**
 * Fills `dataDir`, an existing empty folder, (and its keys folder beside it) with a copy of the run's template,
 * once it is made; answers false (the server then starts on the folder as it is) when the folder does not exist
 * or holds something, when the run has no template, or when making it failed.
 */
export async function fromTemplate(dataDir: string): Promise<boolean> {
  const folder = process.env[TEMPLATE_ENV];
  if (!folder || !existsSync(dataDir) || readdirSync(dataDir).length > 0) return false;
  for (let waited = 0; !existsSync(path.join(folder, READY)); waited += 100) {
    if (existsSync(path.join(folder, FAILED)) || waited > 120_000) return false;
    await sleep(100);
  }
  cpSync(path.join(folder, 'data'), dataDir, { recursive: true });
  const keys = path.join(folder, 'data.keys');
  if (existsSync(keys)) cpSync(keys, `${dataDir}.keys`, { recursive: true });
  return true;
}
