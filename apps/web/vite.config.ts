import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * The code each page of the app loads on its first visit (the modules router.tsx imports lazily), by path. A path
 * covers itself and what lies under it; the signed-in pages also need the shell (/home). The paths are the
 * contract's PATHS (spelled out: this file is read by Node as it is, without the workspace's TypeScript).
 */
const ROUTE_MODULES: Record<string, string[]> = {
  '/': ['src/app/routes/login-page.tsx'],
  '/login': ['src/app/routes/login-page.tsx'],
  '/home': ['src/app/shell/app-shell.tsx'],
  '/home/dashboard': ['src/app/routes/dashboard-page.tsx'],
  '/home/settings': ['src/app/routes/settings-page.tsx'],
  '/home/customers': ['src/app/routes/customer-pages.tsx'],
  // A `:name` segment stands for any one segment of the address (a customer's review pack).
  '/home/customers/:organizationId/review': ['src/app/routes/review-page.tsx'],
  '/home/reports': ['src/app/routes/report-pages.tsx'],
  '/home/tools/account-health': ['src/app/routes/report-pages.tsx'],
  '/home/tools/config-report': ['src/app/routes/report-pages.tsx'],
  '/home/tools/alerts-report': ['src/app/routes/report-pages.tsx'],
  '/home/tools/ps-closure-documents': ['src/app/routes/report-pages.tsx'],
  '/home/tools/tam-weekly-report': ['src/app/routes/report-pages.tsx'],
  '/home/tools/tam-maintenance-window': ['src/app/routes/report-pages.tsx'],
  '/home/tools/dashboards': ['src/app/routes/report-pages.tsx'],
  '/home/tools/bulk-tests': ['src/app/routes/bulk-pages.tsx'],
  '/home/tools/bulk-operations': ['src/app/routes/bulk-pages.tsx'],
  '/home/tools/alerts-migration': ['src/app/routes/alerts-migration-page.tsx'],
  '/home/tools/backup-restore': ['src/app/routes/backup-restore-page.tsx'],
  '/home/tools/time-tracking': ['src/app/routes/tracker-page.tsx'],
  '/home/api-tools': ['src/app/routes/explorer-page.tsx'],
  '/home/support': ['src/app/routes/support-pages.tsx'],
  '/home/diagnostic-tool': ['src/app/routes/support-pages.tsx'],
};

/** What the build writes for the server: each path with every script its page loads (the chunk and its imports). */
interface RoutePreloads {
  routes: { path: string; files: string[] }[];
}

const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * Writes route-preloads.json beside index.html. The server names those scripts in the page it serves
 * (`<link rel="modulepreload">`), so a page's code downloads beside the app's first script instead of after it.
 * A module of the table that no chunk stands for fails the build: the table and router.tsx must agree.
 */
function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'ce-route-preloads',
    // The app's own build only: a build of another page with this configuration (bench:picker's) has no routes.
    apply: (config, { command }) =>
      command === 'build' &&
      (config.root === undefined || path.resolve(config.root) === path.dirname(fileURLToPath(import.meta.url))),
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
      const byModule = new Map(
        chunks.flatMap((chunk) => (chunk.facadeModuleId ? [[chunk.facadeModuleId, chunk]] : [])),
      );
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const withImports = (fileName: string, into: Set<string>, except = new Set<string>()) => {
        const chunk = byFile.get(fileName);
        if (!chunk || into.has(fileName) || except.has(fileName)) return;
        into.add(fileName);
        for (const imported of chunk.imports) withImports(imported, into, except);
      };
      // What the entry imports, index.html already names.
      const loaded = new Set<string>();
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) withImports(entry.fileName, loaded);
      const routes = Object.entries(ROUTE_MODULES).map(([path, modules]) => {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = byModule.get(`${root}/${module}`);
          if (!chunk)
            throw new Error(`route-preloads: no chunk stands for ${module} (${path}); is router.tsx changed?`);
          withImports(chunk.fileName, files, loaded);
        }
        return { path, files: [...files].map((file) => `/${file}`) };
      });
      const preloads: RoutePreloads = { routes };
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(preloads) });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreloads()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/sandbox': 'http://127.0.0.1:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
});
