import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../../../..');

/** The processes tests start: the product's server, and the standalone sandbox. */
export const ENTRIES = {
  server: 'apps/server/src/main.ts',
  sandbox: 'packages/sandbox/src/main.ts',
} as const;
export type Entry = keyof typeof ENTRIES;

/** Where the bundles are written: inside the project, so that their packages resolve from its node_modules. */
export const BUNDLE_DIR = path.join(root, 'apps/server/.test-bundle');

/** Set (to BUNDLE_DIR) once the integration run's global set-up has bundled the entries. */
export const BUNDLE_ENV = 'CE_TEST_SERVER_BUNDLE';

/**
 * Packages left where npm put them, for Node to load: those that read files of their own as they run (a WebAssembly
 * engine, native addons, fonts, static files, worker threads, their package.json). Every other package is bundled
 * too: a process then links one file instead of resolving some 900 modules one by one (measured: a server started
 * in 2.6 s of CPU with its packages outside the bundle, in 1.35 s with them inside).
 */
const READS_OWN_FILES = [
  '@electric-sql/pglite',
  '@fastify/static',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@node-rs/argon2',
  'exceljs',
  'pdfmake',
  'pg-native',
  'pino',
  'sharp',
  'thread-stream',
];
const readsOwnFiles = (specifier: string) =>
  READS_OWN_FILES.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/**
 * A module's own place, written into it: in one bundle every module would otherwise see the bundle's, and the
 * server finds its migrations, the web build and its sheet parser's thread next to its sources.
 */
const ownPlace: Plugin = {
  name: 'own-place',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('node:') || readsOwnFiles(args.path) ? { path: args.path, external: true } : undefined,
    );
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * The server and the sandbox as single JavaScript files, for the tests that start them as processes: a process
 * then loads in under a third of the CPU it takes through tsx (measured: 1.35 s against 4.6 s), and the integration
 * suites start dozens. Their code is the sources', bundled as they are, with the packages that allow it.
 */
export async function bundleEntries(): Promise<void> {
  await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, path.join(root, entry)])),
    outdir: BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Lines in a child's stack trace are the bundle's: a map would be parsed at every start, for a failure's sake.
    sourcemap: false,
    plugins: [ownPlace],
    // The bundled CommonJS packages' own `require` calls (of Node's modules, mostly).
    banner: {
      js: "import { createRequire as createRequireOfBundle } from 'node:module';\nconst require = createRequireOfBundle(import.meta.url);",
    },
    logLevel: 'warning',
  });
}

/** How to start an entry: its bundle when the run made them, else its sources through tsx. */
export function entryArgs(entry: Entry): string[] {
  const bundled = process.env[BUNDLE_ENV];
  if (bundled) return [path.join(bundled, `${entry}.mjs`)];
  return ['--import', 'tsx', path.join(root, ENTRIES[entry])];
}
