import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BOOT_DATA_ELEMENT_ID, type BootData } from '@ce/contract';
import { ensureCsrfCookie } from './csrf.js';

export interface WebAppOptions {
  /** What the page carries for the app to start with: the signed-in user and the app's info. */
  boot?: (request: FastifyRequest) => Promise<BootData>;
}

/** The scripts each page loads on its first visit, by path (written by the web build: route-preloads.json). */
interface RoutePreloads {
  routes: { path: string; files: string[] }[];
}

/**
 * Serves the built single-page app: hashed assets cached for a year, and any other GET outside /api and /sandbox
 * answered with the app's page (history fallback). The build holds a brotli and a gzip copy of each text file; a
 * browser that accepts one gets it as it is.
 *
 * The page is index.html with two additions, so the first screen does not wait on round trips it can be spared:
 * the scripts of the page asked for (`modulepreload`: they download beside the app's own script instead of after
 * it), and the boot data (the signed-in user and the app's info, which the app would otherwise ask for before it
 * shows anything). It names the user, so it is never stored.
 */
export function registerWebApp(app: FastifyInstance, distDir: string, options: WebAppOptions = {}): void {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` (npm start does this)');
    return;
  }
  const page = appPage(distDir);
  void app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    cacheControl: false,
    index: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname.startsWith('/sandbox/')) {
      return reply.callNotFound();
    }
    const candidate = path.join(distDir, path.normalize(pathname));
    if (pathname !== '/' && candidate.startsWith(distDir) && existsSync(candidate) && !candidate.endsWith(path.sep)) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    const boot = options.boot ? await options.boot(request) : undefined;
    // The page's first form needs no call before it can send (an API answer would set it too).
    ensureCsrfCookie(request.jar);
    const html = Buffer.from(page(pathname, boot));
    const accepted = String(request.headers['accept-encoding'] ?? '');
    reply.header('cache-control', 'no-store').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (/\bbr\b/.test(accepted))
      return reply
        .header('content-encoding', 'br')
        .send(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(gzipSync(html));
    return reply.send(html);
  });
}

/**
 * The app's page for a path: index.html, with the path's scripts and the boot data in its head. The build is read
 * again when it changes (a rebuild under a running server must not leave pages naming scripts that are gone).
 */
function appPage(distDir: string): (pathname: string, boot: BootData | undefined) => string {
  const indexFile = path.join(distDir, 'index.html');
  const preloadsFile = path.join(distDir, 'route-preloads.json');
  let read: { version: string; render: (pathname: string, boot: BootData | undefined) => string } | undefined;
  return (pathname, boot) => {
    const version = [indexFile, preloadsFile].map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs).join();
    if (read?.version !== version) read = { version, render: pageTemplate(indexFile, preloadsFile) };
    return read.render(pathname, boot);
  };
}

function pageTemplate(indexFile: string, preloadsFile: string) {
  const html = readFileSync(indexFile, 'utf8');
  const { routes }: RoutePreloads = existsSync(preloadsFile)
    ? JSON.parse(readFileSync(preloadsFile, 'utf8'))
    : { routes: [] };
  // At the end of its head; a page without one (a hand-made index.html) gets them after its doctype.
  const headEnd = html.lastIndexOf('</head>');
  const at = headEnd >= 0 ? headEnd : (/^<!doctype[^>]*>\s*/i.exec(html)?.[0].length ?? 0);
  const [before, after] = [html.slice(0, at), html.slice(at)];
  // A path covers itself and what lies under it; a `:name` segment stands for any one segment (a customer's pages).
  const matchers = routes.map((route) => ({
    route,
    matches: new RegExp(
      `^${route.path
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}(?:/|$)`,
    ),
  }));
  return (pathname: string, boot: BootData | undefined) => {
    const files = new Set(matchers.filter(({ matches }) => matches.test(pathname)).flatMap(({ route }) => route.files));
    const links = [...files].map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`).join('');
    const data = boot
      ? `    <script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${scriptSafeJson(boot)}</script>\n`
      : '';
    return `${before}${links}${data}${headEnd >= 0 ? '  ' : ''}${after}`;
  };
}

/** JSON that cannot end the script element holding it, or open a comment in it. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
