import { BUNDLE_DIR, BUNDLE_ENV, bundleEntries } from './server-bundle.js';

let bundled: Promise<void> | undefined;

/**
 * Vitest's global set-up of the integration projects: the server and the sandbox bundled once per run, for the
 * suites that start them as processes (`entryArgs`). The workers, started after it, inherit where they are.
 */
export default async function setup(): Promise<void> {
  bundled ??= bundleEntries();
  await bundled;
  process.env[BUNDLE_ENV] = BUNDLE_DIR;
}
