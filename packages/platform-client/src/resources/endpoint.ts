import { endpointAgentSchema, endpointDynamicTestSchema, endpointLabelSchema, endpointTestSchema } from '../schemas.js';
import { knownSegment, type Caller } from './caller.js';

/** The endpoint scheduled test types v7 creates under `/endpoint/tests/scheduled-tests/{type}`. */
export const ENDPOINT_SCHEDULED_TYPES = ['agent-to-server', 'http-server'] as const;
export type EndpointScheduledType = (typeof ENDPOINT_SCHEDULED_TYPES)[number];
type Body = Record<string, unknown>;

const DYNAMIC = 'endpoint/tests/dynamic-tests/agent-to-server';
const scheduled = (type: EndpointScheduledType, testId?: string) =>
  `endpoint/tests/scheduled-tests/${knownSegment(type, ENDPOINT_SCHEDULED_TYPES, 'an endpoint test type')}${testId === undefined ? '' : `/${encodeURIComponent(testId)}`}`;

export const endpointAgents = (caller: Caller) => ({
  list: (aid?: string, signal?: AbortSignal) =>
    caller.paginate('endpoint/agents', 'agents', endpointAgentSchema, { aid, signal }),
});

export const endpointTests = (caller: Caller) => ({
  listScheduled: async (aid?: string, signal?: AbortSignal) =>
    caller.list('tests', endpointTestSchema, 'endpoint/tests/scheduled-tests', 'endpoint tests', {
      aid,
      signal,
    }),
  /** Dynamic tests follow an application (Webex, Zoom, Microsoft Teams) wherever its users are. */
  listDynamic: async (aid?: string, signal?: AbortSignal) =>
    caller.list('tests', endpointDynamicTestSchema, DYNAMIC, 'dynamic endpoint tests', { aid, signal }),
  /** A request names its agents flat (`agentSelectorType`, `agents`, `endpointAgentLabels`, `maxMachines`). */
  createScheduled: async (type: EndpointScheduledType, body: Body, aid?: string) =>
    caller.request(endpointTestSchema, scheduled(type), 'created endpoint test', {
      method: 'POST',
      body,
      aid,
      idempotent: false,
    }),
  /** PATCH changes the name, interval, protocol, enabled, and the target; not which agents run it. */
  updateScheduled: async (type: EndpointScheduledType, testId: string, body: Body, aid?: string) =>
    caller.request(endpointTestSchema, scheduled(type, testId), 'updated endpoint test', {
      method: 'PATCH',
      body,
      aid,
    }),
  deleteScheduled: async (type: EndpointScheduledType, testId: string, aid?: string) =>
    caller.http.call<void>(caller.auth, scheduled(type, testId), { method: 'DELETE', aid }),
  createDynamic: (body: Body, aid?: string) =>
    caller.request(endpointDynamicTestSchema, DYNAMIC, 'created dynamic endpoint test', {
      method: 'POST',
      body,
      aid,
      idempotent: false,
    }),
  updateDynamic: (testId: string, body: Body, aid?: string) =>
    caller.request(
      endpointDynamicTestSchema,
      `${DYNAMIC}/${encodeURIComponent(testId)}`,
      'updated dynamic endpoint test',
      {
        method: 'PATCH',
        body,
        aid,
      },
    ),
  deleteDynamic: (testId: string, aid?: string) =>
    caller.http.call<void>(caller.auth, `${DYNAMIC}/${encodeURIComponent(testId)}`, { method: 'DELETE', aid }),
});

export const endpointLabels = (caller: Caller) => ({
  /** Labels with their filters. */
  list: (aid?: string, signal?: AbortSignal) =>
    caller.paginate('endpoint/labels', 'labels', endpointLabelSchema, { aid, query: { expand: ['filters'] }, signal }),
  create: (body: Body, aid?: string) =>
    caller.request(endpointLabelSchema, 'endpoint/labels', 'created endpoint label', {
      method: 'POST',
      body,
      aid,
      idempotent: false,
    }),
  update: (id: string, body: Body, aid?: string) =>
    caller.request(endpointLabelSchema, `endpoint/labels/${encodeURIComponent(id)}`, 'updated endpoint label', {
      method: 'PATCH',
      body,
      aid,
    }),
  delete: (id: string, aid?: string) =>
    caller.http.call<void>(caller.auth, `endpoint/labels/${encodeURIComponent(id)}`, { method: 'DELETE', aid }),
});
