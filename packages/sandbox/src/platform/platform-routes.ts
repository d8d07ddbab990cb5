import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Serializer } from './serialize.js';
import type { PlatformState } from './state.js';
import { accountGroupRoutes } from './routes/account-groups.js';
import { agentHealthRoutes } from './routes/agent-health.js';
import { agentRoutes } from './routes/agents.js';
import { alertDetailRoutes } from './routes/alert-details.js';
import { alertRoutes } from './routes/alerts.js';
import type { RouteContext, SandboxCaller } from './routes/context.js';
import { dashboardRoutes } from './routes/dashboards.js';
import { endpointRoutes } from './routes/endpoint.js';
import { endpointWriteRoutes } from './routes/endpoint-writes.js';
import { eventRoutes } from './routes/events.js';
import { outageRoutes } from './routes/outages.js';
import { snapshotRoutes } from './routes/snapshots.js';
import { list, problem, queryOf, sleep } from './routes/http.js';
import { tagRoutes } from './routes/tags.js';
import { testHistoryRoutes } from './routes/test-history.js';
import { testResultRoutes } from './routes/test-results.js';
import { testRoutes } from './routes/tests.js';
import { usageUnitRoutes } from './routes/usage-units.js';
import { usageRoutes } from './routes/usage.js';
import { auditWrites } from './write-audit.js';

declare module 'fastify' {
  interface FastifyRequest {
    sandboxCaller?: SandboxCaller;
  }
}

/** What a read-only token may not read. */
const ADMIN_PATHS = [/^\/users/, /^\/roles/, /^\/audit-user-events/, /^\/usage/, /^\/quotas/];

export interface PlatformRoutesOptions {
  state: PlatformState;
  /** Filled with every route registered here (the sandbox's OpenAPI document is made from it). */
  routes?: { method: string; url: string }[];
  /** Where people open the sandbox's pages (a snapshot's share link); the request's host when not given. */
  publicUrl?: string | undefined;
}

/** The platform API v7 stand-in, mounted under /sandbox/te/v7. */
export const platformRoutes: FastifyPluginAsync<PlatformRoutesOptions> = async (
  app: FastifyInstance,
  { state, routes, publicUrl },
) => {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes?.push({ method, url: route.url });
  });
  const now = () => Date.now();
  /** The world's clock: fixed worlds (tests) date and measure from their own moment. */
  const worldNow = () => state.worldTime();
  const baseOf = (request: FastifyRequest) =>
    `${request.protocol}://${request.host}${request.url.replace(/\/v7\/.*$/, '/v7')}`;

  app.addHook('onResponse', async (request, reply) => {
    state.recordCall({
      method: request.method,
      path: request.routeOptions.url?.replace(/^.*\/v7/, '') ?? request.url,
      status: reply.statusCode,
      orgId: request.sandboxCaller?.org.orgId ?? null,
      at: now(),
    });
  });

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match ? state.findToken(match[1] ?? '') : undefined;
    // The token's organization may have a scenario of its own (a test's copy of the organizations).
    const scenario = state.scenarioFor(token?.orgId);
    if (scenario.latencyMs > 0) await sleep(scenario.latencyMs);
    if (scenario.down) return problem(reply, 503, 'Service Unavailable', 'The API is in maintenance mode');

    if (!token || token.kind === 'revoked') {
      return reply
        .status(401)
        .type('application/problem+json')
        .send({ error: 'invalid_token', error_description: 'Invalid access token' });
    }
    const org = state.world.organizations.find((candidate) => candidate.orgId === token.orgId);
    if (!org)
      return reply
        .status(401)
        .type('application/problem+json')
        .send({ error: 'invalid_token', error_description: 'Invalid access token' });

    const rate = state.consume(org.orgId);
    reply.header('X-Organization-Rate-Limit-Limit', String(rate.limit));
    reply.header('X-Organization-Rate-Limit-Remaining', String(rate.remaining));
    reply.header('X-Organization-Rate-Limit-Reset', String(Math.ceil(rate.resetAt / 1000)));
    if (scenario.storm429Until > now()) {
      reply.header('X-Organization-Rate-Limit-Remaining', '0');
      reply.header('X-Organization-Rate-Limit-Reset', String(Math.ceil(scenario.storm429Until / 1000)));
      state.countCall(org.orgId, false);
      return problem(reply, 429, 'Too Many Requests', 'Exhausted rate limit for the organization');
    }
    state.countCall(org.orgId, rate.allowed);
    if (!rate.allowed) return problem(reply, 429, 'Too Many Requests', 'Exhausted rate limit for the organization');

    if (scenario.timeoutRate > 0 && Math.random() < scenario.timeoutRate) await sleep(scenario.hangMs);
    const methodFails = scenario.errorMethod === '' || scenario.errorMethod.toUpperCase() === request.method;
    if (scenario.errorRate > 0 && methodFails && Math.random() < scenario.errorRate) {
      return problem(reply, scenario.errorStatus, scenario.errorStatus === 504 ? 'Gateway Timeout' : 'Server Error');
    }

    const path = request.url.replace(/^.*\/v7/, '').split('?')[0] ?? '';
    if (token.kind === 'read-only') {
      const readsUsers = /^\/account-groups\/[^/]+$/.test(path) && list(queryOf(request).expand).includes('user');
      const own = path === '/users/current';
      // The outage filter is a POST that only reads.
      const writes = request.method !== 'GET' && path !== '/internet-insights/outages/filter';
      if (writes || readsUsers || (!own && ADMIN_PATHS.some((pattern) => pattern.test(path)))) {
        return problem(reply, 403, 'Forbidden', 'The token does not have permission for this operation');
      }
    }
    const aid = queryOf(request).aid;
    const orgGroups = state.world.accountGroups.filter((group) => group.orgId === org.orgId);
    const group =
      aid === undefined
        ? orgGroups.find((candidate) => candidate.isDefault)
        : orgGroups.find((candidate) => candidate.aid === aid);
    if (!group) return problem(reply, 403, 'Forbidden', `The user is not assigned to account group ${String(aid)}`);
    request.sandboxCaller = { token, org, group, serializer: new Serializer(state.lookup, baseOf(request)) };
    return undefined;
  });

  const caller = (request: FastifyRequest) => {
    if (!request.sandboxCaller) throw new Error('sandbox caller missing');
    return request.sandboxCaller;
  };
  const hal = (reply: FastifyReply) => reply.type('application/hal+json');

  const context: RouteContext = { state, now, worldNow, caller, hal, publicUrl };
  // After the gate: what it refuses is no write, and is recorded as none.
  auditWrites(app, state, worldNow);
  for (const resource of [
    accountGroupRoutes,
    testRoutes,
    agentRoutes,
    alertRoutes,
    dashboardRoutes,
    tagRoutes,
    usageRoutes,
    endpointRoutes,
    endpointWriteRoutes,
    // The measured platform: results, alert details, events, agents' health, units, versions and the audit of writes.
    testResultRoutes,
    alertDetailRoutes,
    eventRoutes,
    agentHealthRoutes,
    usageUnitRoutes,
    testHistoryRoutes,
    // What a customer review reads besides: Internet Insights outages, and test snapshots for evidence links.
    outageRoutes,
    snapshotRoutes,
  ])
    resource(app, context);
};
