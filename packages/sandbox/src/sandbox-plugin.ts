import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, page } from './html.js';
import { MailOutbox, mailRoutes } from './mail/mail-routes.js';
import type { WorldSize } from './platform/generator.js';
import { sandboxOpenApi } from './platform/openapi.js';
import { platformRoutes } from './platform/platform-routes.js';
import { snapshotShareRoutes } from './platform/routes/snapshots.js';
import type { Token } from './platform/model.js';
import { DEFAULT_SCENARIO, PlatformState, type Scenario } from './platform/state.js';
import { WORLD_CHANGES, WorldChangeError } from './platform/world-changes.js';
import { SalesforceState, salesforceRoutes } from './salesforce/salesforce-routes.js';
import { webexRoutes } from './webex/webex-routes.js';
import { WebexState } from './webex/webex-state.js';

export interface SandboxConfig {
  seed?: string;
  size?: WorldSize;
  rateLimitPerMinute?: number;
  /** The only bot token the Webex stand-in accepts; a random one when not given. */
  webexBotToken?: string | null;
  salesforceClientId?: string | null;
  salesforceClientSecret?: string | null;
  /** The moment the world's dates are spread back from (tests fix it); the start of today, UTC, by default. */
  worldNow?: number;
  /**
   * Where people open the sandbox's pages (the product's PUBLIC_URL when it embeds the sandbox): a snapshot's share
   * link points there. The request's host when not given (the sandbox run on its own).
   */
  publicUrl?: string;
}

/** The state of every stand-in, shared by the HTTP routes and the in-process users (tests, the mailer). */
export class Sandbox {
  readonly platform: PlatformState;
  readonly webex = new WebexState();
  readonly salesforce = new SalesforceState();
  readonly mail = new MailOutbox();
  /** The bot token Webex messages must carry. */
  readonly webexBotToken: string;

  constructor(readonly config: SandboxConfig = {}) {
    this.webexBotToken = config.webexBotToken ?? randomBytes(24).toString('base64url');
    this.platform = new PlatformState({
      seed: config.seed,
      size: config.size,
      rateLimitPerMinute: config.rateLimitPerMinute,
      now: config.worldNow,
    });
  }

  reset(): void {
    this.platform.reset();
    this.webex.reset();
    this.salesforce.reset();
    this.mail.reset();
  }
}

export interface SandboxOptions {
  sandbox: Sandbox;
  /** Demo-only conveniences (listing the tokens) are offered only in demo mode. */
  demoMode: boolean;
}

const SERVICES = [
  {
    path: 'te/v7',
    name: 'Monitoring platform API v7',
    description:
      'account groups, users, tests, agents, alerts, suppression windows, dashboards, tags, usage, endpoint agents',
  },
  {
    path: 'te/tokens',
    name: 'Platform tokens',
    description: 'the sandbox tokens and what each may do (demo mode only)',
  },
  {
    path: 'te/organization-copies',
    name: 'Organization copies',
    description:
      'POST: a fresh copy of the organizations, same data under new ids, tokens and rate budget, for one test (demo mode only)',
  },
  {
    path: 'te/token-revocations',
    name: 'Token revocations',
    description: "POST { token }: the token is revoked, as a customer's admin would (demo mode only)",
  },
  {
    path: 'te/world-changes',
    name: 'World changes',
    description:
      "POST { change, organizationId, aid? }: the customer's world changes now (inactive-user, fix-inactive-user, delete-test, rename-rule), as a watch's next run will find it; GET lists the changes made (demo mode only)",
  },
  {
    path: 'te/scenario',
    name: 'Platform scenario',
    description:
      'latency, rate limit, 429 storms, 5xx, timeouts, platform down (GET, PUT, DELETE; ?organizationId= for one organization)',
  },
  {
    path: 'te/stats',
    name: 'Platform counters',
    description: 'calls accepted per rate-limit window, and per organization the calls accepted and answered 429',
  },
  { path: 'webex', name: 'Webex', description: 'messages delivered by the bot, with their files' },
  {
    path: 'salesforce',
    name: 'CRM (Salesforce REST)',
    description: 'tasks created through the REST and composite APIs',
  },
  { path: 'mail', name: 'Mail', description: 'the outbox of mail sent by the toolkit' },
];

/** Mounts every stand-in; the host registers it under /sandbox. */
export const sandboxPlugin: FastifyPluginAsync<SandboxOptions> = async (app, { sandbox, demoMode }) => {
  // The sandbox imitates other systems' APIs: it is not part of this product's API document.
  app.addHook('onRoute', (route) => {
    // `hide` is read by @fastify/swagger, which the host app registers.
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });
  // A request to the platform that may write (anything but a read) changes its world: the world's lookups are
  // built again, at its start and again at its end (a read answered meanwhile may have built them half-changed).
  const mayWrite = (request: FastifyRequest) =>
    request.url.startsWith(`${app.prefix}/te/`) && request.method !== 'GET' && request.method !== 'HEAD';
  app.addHook('onRequest', async (request) => {
    if (mayWrite(request)) sandbox.platform.lookup.changed();
  });
  app.addHook('onResponse', async (request) => {
    if (mayWrite(request)) sandbox.platform.lookup.changed();
  });
  await app.register(fastifyMultipart, { limits: { files: 1, fileSize: 25 * 1024 * 1024, fields: 20 } });

  app.get('/', async (_request, reply) => {
    const rows = SERVICES.map(
      (service) =>
        `<li><a href="/sandbox/${service.path}">${escapeHtml(service.name)}</a>: ${escapeHtml(service.description)}</li>`,
    ).join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(page('Sandbox', `<p>Stand-ins for the external systems this installation talks to.</p><ul>${rows}</ul>`));
  });

  const routes: { method: string; url: string }[] = [];
  await app.register(platformRoutes, {
    prefix: '/te/v7',
    state: sandbox.platform,
    routes,
    publicUrl: sandbox.config.publicUrl,
  });
  // The share links of test snapshots: opened without a token, as a customer opens one.
  snapshotShareRoutes(app, sandbox.platform);
  // The document of the operations the sandbox implements, made from its own routes (for the API explorer).
  app.get('/te/openapi.json', async (request) =>
    sandboxOpenApi(
      routes,
      `${request.protocol}://${request.host}${request.url.replace(/\/te\/openapi\.json.*$/, '/te/v7')}`,
    ),
  );

  const listed = (tokens: Token[]) =>
    tokens.map((token) => ({
      token: token.token,
      kind: token.kind,
      organizationId: token.orgId,
      organizationName: sandbox.platform.world.organizations.find((org) => org.orgId === token.orgId)?.name ?? '',
      description: token.description,
    }));

  // The tokens of the world's own organizations (copies made for tests are listed by the call that made them).
  app.get('/te/tokens', async (_request, reply) => {
    if (!demoMode) return reply.status(404).send({ message: 'Token listing is available in demo mode only' });
    const own = new Set(sandbox.platform.baseOrganizationIds);
    return { tokens: listed(sandbox.platform.world.tokens.filter((token) => own.has(token.orgId))) };
  });

  // A fresh copy of the world's organizations, for one test: same names and data, its own ids, tokens and
  // rate budget. Answers the copy's tokens, as the token listing does.
  app.post('/te/organization-copies', async (_request, reply) => {
    if (!demoMode) return reply.status(404).send({ message: 'Organization copies can be made in demo mode only' });
    return reply.status(201).send({ tokens: listed(sandbox.platform.addOrganizationCopy()) });
  });

  // A customer's admin revokes a token on the platform: from now on every call with it answers 401.
  app.post('/te/token-revocations', async (request, reply) => {
    if (!demoMode) return reply.status(404).send({ message: 'Tokens can be revoked in demo mode only' });
    const { token } = (request.body ?? {}) as { token?: unknown };
    const found = typeof token === 'string' ? sandbox.platform.findToken(token) : undefined;
    if (!found) return reply.status(404).send({ message: 'No such token in the sandbox' });
    found.kind = 'revoked';
    return reply.status(200).send({ revoked: true });
  });

  // A customer's admins change their world between two runs of a watch: a regression, a fix, a deletion, a rename.
  app.get('/te/world-changes', async (_request, reply) => {
    if (!demoMode) return reply.status(404).send({ message: 'World changes are for demo mode only' });
    return reply.send({ changes: sandbox.platform.changes });
  });
  app.post('/te/world-changes', async (request, reply) => {
    if (!demoMode) return reply.status(404).send({ message: 'World changes are for demo mode only' });
    const body = (request.body ?? {}) as { change?: unknown; organizationId?: unknown; aid?: unknown };
    const change = WORLD_CHANGES.find((name) => name === body.change);
    if (!change || typeof body.organizationId !== 'string' || (body.aid !== undefined && typeof body.aid !== 'string'))
      return reply.status(400).send({ message: `Send { change: ${WORLD_CHANGES.join(' | ')}, organizationId, aid? }` });
    try {
      const result = sandbox.platform.change({ change, organizationId: body.organizationId, aid: body.aid });
      return reply.status(200).send(result);
    } catch (error) {
      if (error instanceof WorldChangeError) return reply.status(404).send({ message: error.message });
      throw error;
    }
  });

  // Switching failure modes is for development and tests: only in demo mode.
  const refuseOutsideDemo = async (_request: unknown, reply: FastifyReply) => {
    if (!demoMode) return reply.status(404).send({ message: 'Scenarios can be changed in demo mode only' });
    return undefined;
  };
  /** `?organizationId=` scopes a scenario to one organization; without it, the scenario is everyone's. */
  const scopeOf = (request: FastifyRequest, reply: FastifyReply): { orgId?: string } | undefined => {
    const { organizationId } = request.query as { organizationId?: string };
    if (organizationId === undefined) return {};
    if (sandbox.platform.world.organizations.some((org) => org.orgId === organizationId))
      return { orgId: organizationId };
    void reply.status(404).send({ message: `No organization ${organizationId} in the sandbox` });
    return undefined;
  };

  app.get('/te/scenario', async (request, reply) => {
    const scope = scopeOf(request, reply);
    return scope && sandbox.platform.scenarioFor(scope.orgId);
  });
  app.put('/te/scenario', { preHandler: refuseOutsideDemo }, async (request, reply) => {
    const scope = scopeOf(request, reply);
    if (!scope) return reply;
    const body = (request.body ?? {}) as Partial<Scenario> & { storm429Ms?: number };
    const next: Scenario = { ...sandbox.platform.scenarioFor(scope.orgId) };
    for (const key of Object.keys(DEFAULT_SCENARIO) as (keyof Scenario)[]) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== typeof DEFAULT_SCENARIO[key])
        return reply.status(400).send({ message: `${key} must be a ${typeof DEFAULT_SCENARIO[key]}` });
      (next as unknown as Record<string, unknown>)[key] = value;
    }
    if (typeof body.storm429Ms === 'number') next.storm429Until = Date.now() + body.storm429Ms;
    if (next.rateLimitPerMinute < 1)
      return reply.status(400).send({ message: 'rateLimitPerMinute must be at least 1' });
    sandbox.platform.setScenario(next, scope.orgId);
    return next;
  });
  app.delete('/te/scenario', { preHandler: refuseOutsideDemo }, async (request, reply) => {
    const scope = scopeOf(request, reply);
    if (!scope) return reply;
    if (scope.orgId !== undefined) {
      sandbox.platform.clearScenario(scope.orgId);
      return sandbox.platform.scenarioFor(scope.orgId);
    }
    sandbox.platform.setScenario({
      ...DEFAULT_SCENARIO,
      rateLimitPerMinute: sandbox.config.rateLimitPerMinute ?? 240,
    });
    return sandbox.platform.scenario;
  });
  app.get('/te/stats', async () => ({
    windows: sandbox.platform.history,
    calls: sandbox.platform.calls.length,
    callsByStatus: sandbox.platform.calls.reduce<Record<string, number>>((counts, call) => {
      counts[call.status] = (counts[call.status] ?? 0) + 1;
      return counts;
    }, {}),
    organizations: [...sandbox.platform.organizations].map(([orgId, counts]) => ({ orgId, ...counts })),
  }));

  app.put('/webex/scenario', { preHandler: refuseOutsideDemo }, async (request) => {
    const body = (request.body ?? {}) as {
      throttleMs?: number;
      retryAfterSeconds?: number;
      toPersonEmail?: string;
      /** Webex down for this long: every message answers 503. */
      unavailableMs?: number;
    };
    const until = Date.now() + (body.throttleMs ?? 0);
    if (typeof body.unavailableMs === 'number') {
      sandbox.webex.unavailableUntil = Date.now() + body.unavailableMs;
      return { unavailableUntil: sandbox.webex.unavailableUntil };
    }
    if (typeof body.retryAfterSeconds === 'number') sandbox.webex.retryAfterSeconds = body.retryAfterSeconds;
    // With a person's email, only messages to that person are throttled.
    if (typeof body.toPersonEmail === 'string') {
      sandbox.webex.throttledFor.set(body.toPersonEmail, until);
      return {
        toPersonEmail: body.toPersonEmail,
        throttledUntil: until,
        retryAfterSeconds: sandbox.webex.retryAfterSeconds,
      };
    }
    sandbox.webex.throttledUntil = until;
    return { throttledUntil: sandbox.webex.throttledUntil, retryAfterSeconds: sandbox.webex.retryAfterSeconds };
  });
  await app.register(webexRoutes, {
    prefix: '/webex',
    state: sandbox.webex,
    botToken: sandbox.webexBotToken,
  });
  await app.register(salesforceRoutes, {
    prefix: '/salesforce',
    state: sandbox.salesforce,
    clientId: sandbox.config.salesforceClientId ?? null,
    clientSecret: sandbox.config.salesforceClientSecret ?? null,
  });
  await app.register(mailRoutes, { prefix: '/mail', outbox: sandbox.mail });
};
