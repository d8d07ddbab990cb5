import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built single-page app: hashed assets cached for a year, index.html never cached, and any
 * other GET outside /api and /sandbox answered with index.html (history fallback). The build holds a
 * brotli and a gzip copy of each text file; a browser that accepts one gets it as it is.
 */
export function registerWebApp(app: FastifyInstance, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` (npm start does this)');
    return;
  }
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
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
