import type { FastifyPluginAsync } from 'fastify';

/**
 * Stand-ins for the external systems the product talks to. Each service registers itself here
 * with a path and one line on what it imitates; GET /sandbox lists them.
 */
export interface SandboxOptions {
  /** Whether demo-only conveniences (listing tokens) are available. */
  demoMode: boolean;
}

export interface SandboxService {
  name: string;
  path: string;
  description: string;
}

export const sandboxPlugin: FastifyPluginAsync<SandboxOptions> = async (app, options) => {
  const services: SandboxService[] = [];

  // The sandbox imitates other systems' APIs: it is not part of this product's API document.
  app.addHook('onRoute', (route) => {
    // `hide` is read by @fastify/swagger, which the host app registers.
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });

  app.get('/', async (_request, reply) => {
    const rows = services
      .map((service) => `<li><a href="${service.path}">${service.name}</a>: ${service.description}</li>`)
      .join('');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox</title></head><body>
<h1>Sandbox</h1>
<p>Stand-ins for the external systems this installation talks to${options.demoMode ? ' (demo mode)' : ''}.</p>
<ul>${rows || '<li>No external system is imitated on this installation yet.</li>'}</ul>
</body></html>`;
  });

  app.get('/services', async () => ({ services }));
};
