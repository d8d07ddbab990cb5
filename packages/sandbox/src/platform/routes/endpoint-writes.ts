import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AgentSelector, EndpointDynamicTest, EndpointLabel, EndpointTest } from '../model.js';
import type { PlatformState } from '../state.js';
import { overLimit, problem } from './http.js';
import type { RouteContext } from './context.js';

type Body = Record<string, unknown>;
type FieldError = { code: string; field: string; message: string };

const MATCH_TYPES = ['and', 'or'] as const;
const FILTER_KEYS = new Set([
  'agent-id',
  'public-network',
  'local-network',
  'connection',
  'gateway',
  'platform',
  'agent-type',
  'vpn-vendor',
  'vpn-gateway-address',
  'vpn-client-network',
  'vpn-client-address',
  'ip-address-family',
  'ssid',
  'bssid',
  'hostname',
  'username',
  'asn',
]);
const INTERVALS = [60, 120, 300, 600, 900, 1800, 3600];
const PROTOCOLS = ['icmp', 'icmp-with-tcp-connect', 'tcp', 'prefer-tcp', 'ast-autodetect', 'autodetect'];
const APPLICATIONS = ['webex', 'zoom', 'microsoft-teams'];
const SCHEDULED = ['agent-to-server', 'http-server'] as const;

const invalidBody = (reply: FastifyReply, errors: FieldError[]) =>
  problem(reply, 400, 'Request validation failed. There are invalid or missing fields', undefined, errors);

/** A label from a `LabelRequest` (POST: name, matchType and filters required) or a `Label` (PATCH: any of them). */
function labelFields(body: Body, required: boolean): Partial<EndpointLabel> | FieldError[] {
  const errors: FieldError[] = [];
  const fields: Partial<EndpointLabel> = {};
  if (body.name !== undefined || required) {
    if (typeof body.name !== 'string' || !body.name.trim())
      errors.push({ code: 'REQUIRED', field: 'name', message: 'name is required' });
    else fields.name = body.name.trim();
  }
  if (body.matchType !== undefined || required) {
    if (!MATCH_TYPES.includes(body.matchType as never))
      errors.push({ code: 'INVALID', field: 'matchType', message: 'matchType must be one of and, or' });
    else fields.matchType = body.matchType as EndpointLabel['matchType'];
  }
  if (body.filters !== undefined || required) {
    const filters = Array.isArray(body.filters) ? (body.filters as Body[]) : null;
    if (!filters) errors.push({ code: 'REQUIRED', field: 'filters', message: 'filters is required' });
    else {
      for (const filter of filters)
        if (!FILTER_KEYS.has(String(filter.key)) || !Array.isArray(filter.values))
          errors.push({ code: 'INVALID', field: 'filters', message: `filter ${String(filter.key)} is not one` });
      fields.filters = filters.map((filter) => ({
        key: String(filter.key),
        values: Array.isArray(filter.values) ? filter.values.map(String) : [],
        mode: filter.mode === 'not-in' ? 'not-in' : 'in',
      }));
    }
  }
  if (typeof body.color === 'string') fields.color = body.color;
  return errors.length ? errors : fields;
}

/** The agents a test request selects (flat in v7 requests, `agentSelectorConfig` in answers). */
function selector(body: Body, aid: string, state: PlatformState, errors: FieldError[]): AgentSelector {
  const maxMachines = Number.isInteger(body.maxMachines) ? Number(body.maxMachines) : 25;
  const ids = (field: string) => (Array.isArray(body[field]) ? (body[field] as unknown[]).map(String) : []);
  switch (body.agentSelectorType ?? 'all-agents') {
    case 'all-agents':
      return { agentSelectorType: 'all-agents', maxMachines };
    case 'specific-agents': {
      const agents = ids('agents');
      const known = new Set(state.world.endpointAgents.filter((agent) => agent.aid === aid).map((agent) => agent.id));
      for (const agent of agents)
        if (!known.has(agent)) errors.push({ code: 'INVALID', field: 'agents', message: `No endpoint agent ${agent}` });
      return { agentSelectorType: 'specific-agents', agents, maxMachines };
    }
    case 'agent-labels': {
      const labels = ids('endpointAgentLabels');
      const known = new Set(state.world.endpointLabels.filter((label) => label.aid === aid).map((label) => label.id));
      for (const label of labels)
        if (!known.has(label))
          errors.push({ code: 'INVALID', field: 'endpointAgentLabels', message: `No endpoint label ${label}` });
      return { agentSelectorType: 'agent-labels', endpointAgentLabels: labels, maxMachines };
    }
    default:
      errors.push({ code: 'INVALID', field: 'agentSelectorType', message: 'agentSelectorType is not supported' });
      return { agentSelectorType: 'all-agents', maxMachines };
  }
}

/** The fields a test request or a PATCH may set, checked against the document's enums. */
function testFields(body: Body, errors: FieldError[]) {
  const fields: { testName?: string; interval?: number; protocol?: string; isEnabled?: boolean } = {};
  if (body.testName !== undefined) {
    if (typeof body.testName !== 'string' || !body.testName.trim())
      errors.push({ code: 'REQUIRED', field: 'testName', message: 'testName is required' });
    else fields.testName = body.testName.trim();
  }
  if (body.interval !== undefined) {
    if (!INTERVALS.includes(Number(body.interval)))
      errors.push({ code: 'INVALID', field: 'interval', message: `interval must be one of ${INTERVALS.join(', ')}` });
    else fields.interval = Number(body.interval);
  }
  if (body.protocol !== undefined) {
    if (!PROTOCOLS.includes(String(body.protocol)))
      errors.push({ code: 'INVALID', field: 'protocol', message: `protocol must be one of ${PROTOCOLS.join(', ')}` });
    else fields.protocol = String(body.protocol);
  }
  if (typeof body.isEnabled === 'boolean') fields.isEnabled = body.isEnabled;
  return fields;
}

/** Endpoint labels and endpoint scheduled and dynamic tests: created, changed (PATCH) and deleted. */
export function endpointWriteRoutes(app: FastifyInstance, { state, worldNow, caller, hal }: RouteContext): void {
  const stamp = () => new Date(worldNow()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const labelAnswer = ({ aid: _aid, ...label }: EndpointLabel, link: (path: string) => { href: string }) => ({
    ...label,
    _links: { self: link(`/endpoint/labels/${label.id}`) },
  });

  app.post('/endpoint/labels', async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.endpointLabels.filter((label) => label.aid === group.aid).length,
      'labels',
      'account group',
    );
    if (full) return full;
    const fields = labelFields((request.body ?? {}) as Body, true);
    if (Array.isArray(fields)) return invalidBody(reply, fields);
    const label: EndpointLabel = {
      color: '#1f77b4',
      matchType: 'and',
      filters: [],
      name: '',
      ...fields,
      id: state.newId(),
      aid: group.aid,
    };
    state.world.endpointLabels.push(label);
    reply.header('Location', serializer.link(`/endpoint/labels/${label.id}`).href);
    return hal(reply)
      .status(201)
      .send(labelAnswer(label, (path) => serializer.link(path)));
  });

  const findLabel = (aid: string, id: string) =>
    state.world.endpointLabels.findIndex((label) => label.id === id && label.aid === aid);
  app.patch<{ Params: { id: string } }>('/endpoint/labels/:id', async (request, reply) => {
    const { group, serializer } = caller(request);
    const label = state.world.endpointLabels[findLabel(group.aid, request.params.id)];
    if (!label) return problem(reply, 404, 'Not Found', `Label ${request.params.id} not found`);
    const fields = labelFields((request.body ?? {}) as Body, false);
    if (Array.isArray(fields)) return invalidBody(reply, fields);
    Object.assign(label, fields);
    return hal(reply).send(labelAnswer(label, (path) => serializer.link(path)));
  });
  app.delete<{ Params: { id: string } }>('/endpoint/labels/:id', async (request, reply) => {
    const { group } = caller(request);
    const index = findLabel(group.aid, request.params.id);
    if (index < 0) return problem(reply, 404, 'Not Found', `Label ${request.params.id} not found`);
    state.world.endpointLabels.splice(index, 1);
    return reply.status(204).send();
  });

  for (const type of SCHEDULED) {
    const path = `/endpoint/tests/scheduled-tests/${type}`;
    const answer = ({ aid, ...test }: EndpointTest, link: (path: string) => { href: string }) => ({
      ...test,
      aid,
      isPrioritized: false,
      _links: { self: link(`${path}/${test.testId}`) },
    });
    app.post(path, async (request, reply) => {
      const { group, serializer } = caller(request);
      const full = overLimit(
        reply,
        state.world.endpointTests.filter((test) => test.aid === group.aid).length,
        'tests',
        'account group',
      );
      if (full) return full;
      const body = (request.body ?? {}) as Body;
      const errors: FieldError[] = [];
      const fields = testFields({ testName: body.testName ?? '', ...body }, errors);
      const target = type === 'http-server' ? body.url : body.server;
      if (typeof target !== 'string' || !target.trim())
        errors.push({
          code: 'REQUIRED',
          field: type === 'http-server' ? 'url' : 'server',
          message: 'target is required',
        });
      const agentSelectorConfig = selector(body, group.aid, state, errors);
      if (errors.length) return invalidBody(reply, errors);
      const test: EndpointTest = {
        testId: state.newId(),
        aid: group.aid,
        testName: fields.testName ?? '',
        type,
        interval: fields.interval ?? 60,
        isEnabled: fields.isEnabled ?? true,
        protocol: (fields.protocol ?? 'icmp') as EndpointTest['protocol'],
        ...(type === 'http-server' ? { url: String(target) } : { server: String(target) }),
        agentSelectorConfig,
      };
      state.world.endpointTests.push(test);
      reply.header('Location', serializer.link(`${path}/${test.testId}`).href);
      return hal(reply)
        .status(201)
        .send(answer(test, (link) => serializer.link(link)));
    });
    const findTest = (aid: string, testId: string) =>
      state.world.endpointTests.findIndex((test) => test.testId === testId && test.aid === aid && test.type === type);
    app.patch<{ Params: { testId: string } }>(`${path}/:testId`, async (request, reply) => {
      const { group, serializer } = caller(request);
      const test = state.world.endpointTests[findTest(group.aid, request.params.testId)];
      if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      const body = (request.body ?? {}) as Body;
      const errors: FieldError[] = [];
      const fields = testFields(body, errors);
      if (errors.length) return invalidBody(reply, errors);
      Object.assign(test, fields);
      if (type === 'http-server' && typeof body.url === 'string') test.url = body.url;
      if (type === 'agent-to-server' && typeof body.server === 'string') test.server = body.server;
      return hal(reply).send(answer(test, (link) => serializer.link(link)));
    });
    app.delete<{ Params: { testId: string } }>(`${path}/:testId`, async (request, reply) => {
      const { group } = caller(request);
      const index = findTest(group.aid, request.params.testId);
      if (index < 0) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
      state.world.endpointTests.splice(index, 1);
      return reply.status(204).send();
    });
  }

  const dynamicPath = '/endpoint/tests/dynamic-tests/agent-to-server';
  const dynamicAnswer = (test: EndpointDynamicTest, link: (path: string) => { href: string }) => ({
    ...test,
    isPrioritized: false,
    _links: { self: link(`${dynamicPath}/${test.testId}`) },
  });
  app.post(dynamicPath, async (request, reply) => {
    const { group, serializer } = caller(request);
    const full = overLimit(
      reply,
      state.world.endpointDynamicTests.filter((test) => test.aid === group.aid).length,
      'tests',
      'account group',
    );
    if (full) return full;
    const body = (request.body ?? {}) as Body;
    const errors: FieldError[] = [];
    const fields = testFields({ testName: body.testName ?? '', ...body }, errors);
    if (!APPLICATIONS.includes(String(body.application)))
      errors.push({
        code: 'INVALID',
        field: 'application',
        message: `application must be one of ${APPLICATIONS.join(', ')}`,
      });
    const agentSelectorConfig = selector(body, group.aid, state, errors);
    if (errors.length) return invalidBody(reply, errors);
    const test: EndpointDynamicTest = {
      testId: state.newId(),
      aid: group.aid,
      testName: fields.testName ?? '',
      application: body.application as EndpointDynamicTest['application'],
      interval: fields.interval ?? 60,
      isEnabled: fields.isEnabled ?? true,
      createdDate: stamp(),
      agentSelectorConfig,
    };
    state.world.endpointDynamicTests.push(test);
    reply.header('Location', serializer.link(`${dynamicPath}/${test.testId}`).href);
    return hal(reply)
      .status(201)
      .send(dynamicAnswer(test, (link) => serializer.link(link)));
  });
  const findDynamic = (aid: string, testId: string) =>
    state.world.endpointDynamicTests.findIndex((test) => test.testId === testId && test.aid === aid);
  app.patch<{ Params: { testId: string } }>(`${dynamicPath}/:testId`, async (request, reply) => {
    const { group, serializer } = caller(request);
    const test = state.world.endpointDynamicTests[findDynamic(group.aid, request.params.testId)];
    if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
    const body = (request.body ?? {}) as Body;
    const errors: FieldError[] = [];
    const fields = testFields(body, errors);
    if (body.application !== undefined && !APPLICATIONS.includes(String(body.application)))
      errors.push({
        code: 'INVALID',
        field: 'application',
        message: `application must be one of ${APPLICATIONS.join(', ')}`,
      });
    if (errors.length) return invalidBody(reply, errors);
    const { protocol: _protocol, ...rest } = fields;
    Object.assign(test, rest, body.application ? { application: body.application } : {});
    return hal(reply).send(dynamicAnswer(test, (link) => serializer.link(link)));
  });
  app.delete<{ Params: { testId: string } }>(`${dynamicPath}/:testId`, async (request, reply) => {
    const { group } = caller(request);
    const index = findDynamic(group.aid, request.params.testId);
    if (index < 0) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
    state.world.endpointDynamicTests.splice(index, 1);
    return reply.status(204).send();
  });
}
