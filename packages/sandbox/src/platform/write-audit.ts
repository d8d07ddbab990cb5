import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS } from '../bounded.js';
import type { PlatformState } from './state.js';
import type { World } from './world.js';

/**
 * The platform's activity log of writes (`/audit-user-events`): every write the sandbox takes is recorded as the
 * platform records it, once it succeeded, as the token's user made it ("Test deleted", its resource by type and
 * name, the caller's address), so what the customer's admin changed with their own token can be told from the log.
 */

type Named = Record<string, unknown>;

interface AuditedResource {
  /** The path of its writes, the id of the one written (if any) in the first group. */
  path: RegExp;
  /** The event's noun: "Test", "Alert rule". */
  noun: string;
  /** The resource's type in the event. */
  type: string;
  /** Its name in a request's or an answer's body. */
  nameOf(body: Named): string | undefined;
  /** Its name in the world before the write (an update's or a deletion's), by its id. */
  find(world: World, id: string): string | undefined;
  /** A POST that is no creation ("assigned"). */
  postVerb?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

const RESOURCES: AuditedResource[] = [
  // Before tests: a snapshot's path is under its test's, and making one changes no test.
  {
    path: /^\/tests\/[^/]+\/snapshot$/,
    noun: 'Snapshot',
    type: 'snapshot',
    nameOf: (body) => text(body.displayName),
    find: () => undefined,
  },
  {
    path: /^\/tests\/[^/]+(?:\/([^/]+))?$/,
    noun: 'Test',
    type: 'test',
    nameOf: (body) => text(body.testName),
    find: (world, id) => world.tests.find((test) => test.testId === id)?.testName,
  },
  {
    path: /^\/alerts\/rules(?:\/([^/]+))?$/,
    noun: 'Alert rule',
    type: 'alert-rule',
    nameOf: (body) => text(body.ruleName),
    find: (world, id) => world.alertRules.find((rule) => rule.ruleId === id)?.ruleName,
  },
  {
    path: /^\/alert-suppression-windows(?:\/([^/]+))?$/,
    noun: 'Alert suppression window',
    type: 'alert-suppression-window',
    nameOf: (body) => text(body.name),
    find: (world, id) => world.suppressionWindows.find((window) => window.alertSuppressionWindowId === id)?.name,
  },
  {
    path: /^\/dashboards(?:\/([^/]+))?$/,
    noun: 'Dashboard',
    type: 'dashboard',
    nameOf: (body) => text(body.title),
    find: (world, id) => world.dashboards.find((dashboard) => dashboard.dashboardId === id)?.title,
  },
  {
    path: /^\/tags\/([^/]+)\/assign$/,
    noun: 'Tag',
    type: 'tag',
    postVerb: 'assigned',
    nameOf: () => undefined,
    find: (world, id) => tagName(world.tags.find((tag) => tag.id === id)),
  },
  {
    path: /^\/tags(?:\/([^/]+))?$/,
    noun: 'Tag',
    type: 'tag',
    nameOf: (body) => (text(body.key) && text(body.value) ? `${String(body.key)}: ${String(body.value)}` : undefined),
    find: (world, id) => tagName(world.tags.find((tag) => tag.id === id)),
  },
  {
    path: /^\/endpoint\/labels(?:\/([^/]+))?$/,
    noun: 'Endpoint label',
    type: 'endpoint-label',
    nameOf: (body) => text(body.name),
    find: (world, id) => world.endpointLabels.find((label) => label.id === id)?.name,
  },
  {
    path: /^\/endpoint\/tests\/(?:scheduled|dynamic)-tests\/[^/]+(?:\/([^/]+))?$/,
    noun: 'Endpoint test',
    type: 'endpoint-test',
    nameOf: (body) => text(body.testName),
    find: (world, id) =>
      world.endpointTests.find((test) => test.testId === id)?.testName ??
      world.endpointDynamicTests.find((test) => test.testId === id)?.testName,
  },
  {
    path: /^\/agents\/([^/]+)$/,
    noun: 'Agent',
    type: 'agent',
    nameOf: (body) => text(body.agentName),
    find: (world, id) => world.agents.find((agent) => agent.agentId === id)?.agentName,
  },
  {
    path: /^\/users(?:\/([^/]+))?$/,
    noun: 'User',
    type: 'user',
    postVerb: 'invited',
    nameOf: (body) => text(body.email),
    find: (world, id) => world.users.find((user) => user.uid === id)?.email,
  },
];

const tagName = (tag: { key: string; value: string } | undefined) => (tag ? `${tag.key}: ${tag.value}` : undefined);

const VERBS: Record<string, string> = { POST: 'created', PUT: 'updated', PATCH: 'updated', DELETE: 'deleted' };

interface PendingWrite {
  resource: AuditedResource;
  verb: string;
  /** The name before the write (an update's or a deletion's), read before the handler changes the world. */
  before: string | undefined;
  requestName: string | undefined;
}

const pending = new WeakMap<FastifyRequest, PendingWrite>();

/** The body of an answer as JSON, when it is one. */
function answerBody(payload: unknown): Named {
  if (typeof payload !== 'string') return {};
  try {
    const parsed: unknown = JSON.parse(payload);
    return parsed && typeof parsed === 'object' ? (parsed as Named) : {};
  } catch {
    return {};
  }
}

/**
 * Records the platform's audit event of each write that succeeded. Registered after the gate, so a refused call
 * (401, 403, 429, a fault) writes nothing and is recorded as nothing.
 */
export function auditWrites(app: FastifyInstance, state: PlatformState, worldNow: () => number): void {
  app.addHook('preHandler', async (request) => {
    const verb = VERBS[request.method];
    if (!verb || !request.sandboxCaller) return;
    const path = request.url.replace(/^.*\/v7/, '').split('?')[0] ?? '';
    for (const resource of RESOURCES) {
      const match = resource.path.exec(path);
      if (!match) continue;
      const id = match[1];
      const body = (request.body ?? {}) as Named;
      pending.set(request, {
        resource,
        verb: request.method === 'POST' && resource.postVerb ? resource.postVerb : verb,
        before: id ? resource.find(state.world, decodeURIComponent(id)) : undefined,
        requestName: typeof body === 'object' ? resource.nameOf(body) : undefined,
      });
      return;
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const write = pending.get(request);
    const caller = request.sandboxCaller;
    if (!write || !caller || reply.statusCode >= 300) return payload;
    pending.delete(request);
    // Who the token is: the organization's admin (as `/users/current` answers for it).
    const user = state.world.users.find((candidate) => candidate.orgId === caller.org.orgId);
    const name = write.resource.nameOf(answerBody(payload)) ?? write.requestName ?? write.before;
    const renamed = write.before && name && write.before !== name ? [write.before] : [];
    state.world.auditEvents.unshift({
      aid: caller.group.aid,
      date: new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      event: `${write.resource.noun} ${write.verb}`,
      ipAddress: request.ip,
      uid: user?.uid ?? '',
      user: user ? `${user.name} (${user.email})` : 'API user',
      // A renamed item is named by both its names: the log is searched by the one a reader knows.
      resources: [...(name ? [name] : []), ...renamed].map((each) => ({ type: write.resource.type, name: each })),
    });
    // Newest first, as the generator sorts the log; the oldest go past the bound.
    if (state.world.auditEvents.length > LIMITS.auditEvents) state.world.auditEvents.length = LIMITS.auditEvents;
    return payload;
  });
}
