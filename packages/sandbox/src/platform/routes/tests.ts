import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Test, TestType } from '../model.js';
import { list, overLimit, problem, queryOf } from './http.js';
import type { PlatformState } from '../state.js';
import type { RouteContext } from './context.js';
import { testAtVersion } from './test-history.js';

const TEST_TYPES: TestType[] = ['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'];
const INTERVALS = [60, 120, 300, 600, 900, 1800, 3600];

function validateTestBody(
  type: TestType,
  body: Record<string, unknown>,
  state: PlatformState,
  aid: string,
  existingId?: string,
) {
  const errors: { code: string; field: string; message: string }[] = [];
  const required = (field: string) => {
    const value = body[field];
    if (value === undefined || value === null || value === '')
      errors.push({ code: 'REQUIRED', field, message: `${field} is required` });
  };
  if (typeof body.testName !== 'string' || body.testName.trim() === '') {
    errors.push({ code: 'REQUIRED', field: 'testName', message: 'testName is required' });
  } else if (
    state.world.tests.some((test) => test.aid === aid && test.testName === body.testName && test.testId !== existingId)
  ) {
    errors.push({ code: 'DUPLICATE', field: 'testName', message: 'Test name must be unique within the account group' });
  }
  if (type === 'bgp') {
    // BGP prefixes cannot change after creation.
    if (existingId === undefined) required('prefix');
    else if (body.prefix !== undefined)
      errors.push({ code: 'INVALID', field: 'prefix', message: 'prefix cannot be updated' });
    if (typeof body.prefix === 'string' && !/^\d{1,3}(\.\d{1,3}){3}\/(8|9|1\d|2[0-4])$/.test(body.prefix)) {
      errors.push({ code: 'INVALID', field: 'prefix', message: 'prefix must be an IPv4 prefix from /8 to /24' });
    }
  } else {
    if (existingId === undefined) required('interval');
    if (body.interval !== undefined && !INTERVALS.includes(Number(body.interval))) {
      errors.push({ code: 'INVALID', field: 'interval', message: `interval must be one of ${INTERVALS.join(', ')}` });
    }
    if (existingId === undefined) {
      if (!Array.isArray(body.agents) || body.agents.length === 0) {
        errors.push({ code: 'REQUIRED', field: 'agents', message: 'at least one agent is required' });
      }
    }
    if (Array.isArray(body.agents)) {
      for (const [index, entry] of body.agents.entries()) {
        const agentId = (entry as { agentId?: unknown })?.agentId;
        const agent = state.world.agents.find((candidate) => candidate.agentId === agentId);
        if (!agent || (agent.agentType === 'enterprise' && !agent.aids.includes(aid))) {
          errors.push({
            code: 'INVALID',
            field: `agents[${index}].agentId`,
            message: `agent ${String(agentId)} is not available in this account group`,
          });
        }
      }
    }
  }
  if (existingId === undefined) {
    if (type === 'http-server' || type === 'page-load') required('url');
    if (type === 'dns-server' || type === 'dns-trace') required('domain');
    if (type === 'dns-server') required('dnsServers');
    if (type === 'agent-to-server') required('server');
  }
  if (
    (type === 'http-server' || type === 'page-load') &&
    typeof body.url === 'string' &&
    !/^https?:\/\/\S+$/.test(body.url)
  ) {
    errors.push({ code: 'INVALID', field: 'url', message: 'url must start with http:// or https://' });
  }
  if (body.port !== undefined && (!Number.isInteger(body.port) || Number(body.port) < 1 || Number(body.port) > 65535)) {
    errors.push({ code: 'INVALID', field: 'port', message: 'port must be between 1 and 65535' });
  }
  return errors;
}

/** Requests name DNS servers; answers describe them as objects. */
const dnsServerObjects = (servers: unknown[]) =>
  servers.map((server, index) =>
    typeof server === 'string' ? { serverId: String(1447 + index), serverName: server } : server,
  );

const CONFIG_FIELDS = [
  'url',
  'domain',
  'server',
  'port',
  'protocol',
  'dnsServers',
  'prefix',
  'usePublicBgp',
  'requestMethod',
  'followRedirects',
  'verifyCertificate',
  'desiredStatusCode',
];

/** Tests of every type: list, read, create, update, delete. */
export function testRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  const testsOf = (aid: string) => state.lookup.testsOf(aid);

  app.get('/tests', async (request, reply) => {
    const { group, serializer } = caller(request);
    return hal(reply).send({
      tests: testsOf(group.aid).map((test) => serializer.testSummary(test, false)),
      _links: { self: serializer.link('/tests') },
    });
  });

  /** A group whose plan leaves a test type out is refused its tests of that type, as the platform does. */
  const notInPlan = (reply: FastifyReply, group: { testTypesNotInPlan?: string[] }, type: string) =>
    group.testTypesNotInPlan?.includes(type)
      ? problem(reply, 403, 'Forbidden', `This account group's plan does not include ${type} tests`)
      : undefined;

  for (const type of TEST_TYPES) {
    app.get(`/tests/${type}`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const refused = notInPlan(reply, group, type);
      if (refused) return refused;
      const tests = testsOf(group.aid).filter((test) => test.type === type);
      return hal(reply).send({
        tests: tests.map((test) => serializer.testSummary(test, true)),
        _links: { self: serializer.link(`/tests/${type}`) },
      });
    });

    app.get<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const test = testsOf(group.aid).find(
        (candidate) => candidate.testId === request.params.testId && candidate.type === type,
      );
      if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const versionId = queryOf(request).versionId;
      const version = versionId === undefined ? test : testAtVersion(state, test, versionId);
      if (!version) return problem(reply, 404, 'Not Found', `Test ${test.testId} has no version ${String(versionId)}`);
      return hal(reply).send(serializer.test(version, list(queryOf(request).expand)));
    });

    app.post(`/tests/${type}`, async (request, reply) => {
      const { group, serializer, token } = caller(request);
      const refused = notInPlan(reply, group, type);
      if (refused) return refused;
      const full = overLimit(reply, testsOf(group.aid).length, 'tests', 'account group');
      if (full) return full;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const errors = validateTestBody(type, body, state, group.aid);
      if (errors.length)
        return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
      const created = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const creator = state.world.users.find((user) => user.orgId === token.orgId)?.email ?? 'api@example.com';
      const test: Test = {
        testId: state.newId(),
        aid: group.aid,
        type,
        testName: String(body.testName),
        interval: type === 'bgp' ? 900 : Number(body.interval),
        enabled: body.enabled !== false,
        alertsEnabled: body.alertsEnabled !== false,
        description: typeof body.description === 'string' ? body.description : '',
        createdBy: creator,
        createdDate: created,
        modifiedBy: creator,
        modifiedDate: created,
        agentIds: Array.isArray(body.agents)
          ? body.agents.map((agent) => String((agent as { agentId: unknown }).agentId))
          : [],
        alertRuleIds: Array.isArray(body.alertRules)
          ? body.alertRules.map(String)
          : body.alertsEnabled === false
            ? []
            : state.world.alertRules
                .filter(
                  (rule) =>
                    rule.aid === group.aid && rule.isDefault && rule.alertType.startsWith(type.split('-')[0] ?? ''),
                )
                .map((rule) => rule.ruleId),
        config: Object.fromEntries(
          CONFIG_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]),
        ),
      };
      if (type === 'agent-to-server' && test.config.port === undefined) test.config.port = 80;
      if (Array.isArray(test.config.dnsServers)) test.config.dnsServers = dnsServerObjects(test.config.dnsServers);
      state.world.tests.push(test);
      reply.header('Location', serializer.link(`/tests/${type}/${test.testId}`).href);
      return hal(reply)
        .status(201)
        .send(serializer.test(test, ['agent', 'alert-rule']));
    });

    app.put<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const test = testsOf(group.aid).find(
        (candidate) => candidate.testId === request.params.testId && candidate.type === type,
      );
      if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const errors = validateTestBody(type, { testName: test.testName, ...body }, state, group.aid, test.testId);
      if (errors.length)
        return problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);
      if (typeof body.testName === 'string') test.testName = body.testName;
      if (body.interval !== undefined) test.interval = Number(body.interval);
      if (typeof body.enabled === 'boolean') test.enabled = body.enabled;
      if (typeof body.alertsEnabled === 'boolean') test.alertsEnabled = body.alertsEnabled;
      if (typeof body.description === 'string') test.description = body.description;
      if (Array.isArray(body.agents))
        test.agentIds = body.agents.map((agent) => String((agent as { agentId: unknown }).agentId));
      for (const field of CONFIG_FIELDS) if (body[field] !== undefined) test.config[field] = body[field];
      if (Array.isArray(test.config.dnsServers)) test.config.dnsServers = dnsServerObjects(test.config.dnsServers);
      test.modifiedDate = new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return hal(reply).send(serializer.test(test, ['agent', 'alert-rule']));
    });

    app.delete<{ Params: { testId: string } }>(`/tests/${type}/:testId`, async (request, reply) => {
      const { group } = caller(request);
      const index = state.world.tests.findIndex(
        (test) => test.aid === group.aid && test.testId === request.params.testId && test.type === type,
      );
      if (index === -1) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const [removed] = state.world.tests.splice(index, 1);
      for (const rule of state.world.alertRules)
        rule.testIds = rule.testIds.filter((testId) => testId !== removed?.testId);
      return reply.status(204).send();
    });
  }
}
