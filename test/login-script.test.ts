/**
 * The scripts the first screens load (the entry chunk and the chunks it imports statically, then what the server
 * names for the page: the sign-in page, the shell, the dashboard, a customer's page) carry no schema library: zod comes with the first check, in a chunk of its own; nor does a customer's page carry the table library (its timeline's table loads after the page paints). A value the entry needs
 * from the contract (a message, a constant) lives in one of the contract's modules without zod; taking it
 * from a module that builds schemas brings zod along (about 30 KB gzipped, over the 150 KB of bench:lighthouse).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, type Rolldown } from 'vite';

const root = path.resolve(import.meta.dirname, '..');

describe('the first screens’ scripts', () => {
  it('hold no module of zod, and a customer’s page none of the table library', async () => {
    const output = await build({
      configFile: path.join(root, 'apps/web/vite.config.ts'),
      root: path.join(root, 'apps/web'),
      logLevel: 'silent',
      build: { write: false, minify: false, reportCompressedSize: false },
    });
    const files = (Array.isArray(output) ? output : [output]).flatMap((result) =>
      'output' in result ? result.output : [],
    );
    const chunks = files.filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
    const preloads = files.find((file) => file.fileName === 'route-preloads.json');
    expect(preloads?.type).toBe('asset');
    const { routes } = JSON.parse(preloads?.type === 'asset' ? String(preloads.source) : '{}') as {
      routes: { path: string; files: string[] }[];
    };
    // The first screens by address: a customer's page is its own address, under /home/customers.
    const firstScreens = ['/login', '/home', '/home/dashboard', '/home/customers', '/home/customers/9000'];
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining(firstScreens.slice(0, -1)));
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const entry = chunks.find((chunk) => chunk.isEntry);
    expect(entry).toBeDefined();
    /** What the server names for an address (as web-app.ts: each route that is it or lies above it), with imports. */
    const scriptsOf = (address: string) => {
      const loaded = new Set<string>();
      const visit = (fileName: string) => {
        if (loaded.has(fileName)) return;
        loaded.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
      };
      visit(entry?.fileName ?? '');
      const segments = address.split('/');
      const covers = (path: string) =>
        path.split('/').every((segment, index) => segment.startsWith(':') || segment === segments[index]) &&
        path.split('/').length <= segments.length;
      for (const route of routes.filter((candidate) => covers(candidate.path)))
        for (const file of route.files) visit(file.slice(1));
      return loaded;
    };
    const modulesOf = (address: string, library: string) =>
      [...scriptsOf(address)].flatMap((fileName) =>
        (byName.get(fileName)?.moduleIds ?? [])
          .filter((id) => id.includes(`/node_modules/${library}/`))
          .map((id) => `${fileName}: ${path.relative(root, id)}`),
      );
    expect(firstScreens.flatMap((address) => modulesOf(address, 'zod'))).toEqual([]);
    // A customer's page paints without the table library: its timeline's table comes after.
    expect(modulesOf('/home/customers/9000', '@tanstack/table-core')).toEqual([]);
    expect(
      chunks.some((chunk) => chunk.moduleIds.some((id) => id.includes('/node_modules/@tanstack/table-core/'))),
    ).toBe(true);
    // The schema library is still built, for the pages that check forms.
    expect(chunks.some((chunk) => chunk.moduleIds.some((id) => id.includes('/node_modules/zod/')))).toBe(true);
  }, 120_000);
});
