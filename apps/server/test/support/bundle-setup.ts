import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeDataDirTemplate, TEMPLATE_ENV } from './data-dir-template.js';
import { BUNDLE_DIR, BUNDLE_ENV, bundleEntries } from './server-bundle.js';

let bundled: Promise<void> | undefined;

/**
 * Vitest's global set-up of the integration projects: the server and the sandbox bundled once per run, for the
 * suites that start them as processes (`entryArgs`), and a data folder for those that start a server on an empty
 * one to copy (`fromTemplate`), made while the first files run. The workers, started after it, inherit where
 * both are.
 */
export default async function setup(): Promise<() => Promise<void>> {
  bundled ??= bundleEntries();
  await bundled;
  process.env[BUNDLE_ENV] = BUNDLE_DIR;
  const template = mkdtempSync(path.join(os.tmpdir(), 'ce-data-template-'));
  const made = makeDataDirTemplate(template);
  process.env[TEMPLATE_ENV] = template;
  return async () => {
    await made;
    rmSync(template, { recursive: true, force: true });
  };
}
