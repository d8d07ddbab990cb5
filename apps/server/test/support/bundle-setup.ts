import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDataDirTemplate, TEMPLATE_ENV } from './data-dir-template.js';
import { BUNDLE_DIR, BUNDLE_ENV, bundleEntries } from './server-bundle.js';

/** What the run's set-up made, kept where every project's copy of this module finds it (each loads its own). */
interface RunSetup {
  bundled: Promise<void>;
  template: { folder: string; made: Promise<void> };
}
const RUN_SETUP = Symbol.for('ce.integration-run-setup');
const run = globalThis as typeof globalThis & { [RUN_SETUP]?: RunSetup };

/**
 * Vitest's global set-up of the integration projects (each project runs it, in a module of its own; the work is
 * done once per run): the server and the sandbox bundled, for the suites that start them as processes
 * (`entryArgs`), and a data folder for those that start a server on an empty one to copy (`fromTemplate`), made
 * while the first files run. The workers, started after it, inherit where both are.
 */
export default async function setup(): Promise<() => Promise<void>> {
  run[RUN_SETUP] ??= prepare();
  const { bundled, template } = run[RUN_SETUP];
  await bundled;
  process.env[TEMPLATE_ENV] = template.folder;
  return async () => {
    await template.made.catch(() => undefined);
    rmSync(template.folder, { recursive: true, force: true });
  };
}

function prepare(): RunSetup {
  const bundled = bundleEntries().then(() => {
    process.env[BUNDLE_ENV] = BUNDLE_DIR;
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ce-data-template-'));
  return { bundled, template: { folder, made: bundled.then(() => makeDataDirTemplate(folder)) } };
}
