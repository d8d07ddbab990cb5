import {
  PLATFORM_API_TEST_TYPES,
  testSchema,
  type PlatformTest,
  type PlatformApiTestType,
  type TestCreateBody,
} from '../schemas.js';
import { testVersionSchema } from '../measurement-schemas.js';
import { PlatformError } from '../errors.js';
import { knownSegment, type Caller } from './caller.js';

/** A test type the API serves (it names the URL of the test's calls), or refused before any call. */
export function apiTestType(text: string): PlatformApiTestType {
  const type = PLATFORM_API_TEST_TYPES.find((known) => known === text);
  if (!type) throw new PlatformError(400, `"${text}" is not a test type the platform knows.`);
  return type;
}

/** `tests/{type}`, and `/{testId}` when given: the type one the API serves, the id encoded. */
const testPath = (type: string, testId?: string) =>
  `tests/${knownSegment(type, PLATFORM_API_TEST_TYPES, 'a test type')}${testId === undefined ? '' : `/${encodeURIComponent(testId)}`}`;

const PARTIAL_UPDATE_TYPES = new Set<PlatformApiTestType>(['agent-to-server', 'bgp']);
const TYPE_FIELDS = [
  'url',
  'domain',
  'server',
  'port',
  'protocol',
  'prefix',
  'requestMethod',
  'followRedirects',
  'verifyCertificate',
  'desiredStatusCode',
];

/** The writable part of a test as read back, in the form a PUT or POST takes (ids, not objects). */
export function writableTestBody(test: PlatformTest): TestCreateBody {
  const source = test as Record<string, unknown>;
  const body: TestCreateBody = {
    testName: test.testName,
    ...(test.interval !== undefined ? { interval: test.interval } : {}),
    ...(test.enabled !== undefined ? { enabled: test.enabled } : {}),
    ...(test.alertsEnabled !== undefined ? { alertsEnabled: test.alertsEnabled } : {}),
    description: test.description ?? '',
    ...(test.agents ? { agents: test.agents.map((agent) => ({ agentId: agent.agentId })) } : {}),
    ...(test.alertRules ? { alertRules: test.alertRules.map((rule) => rule.ruleId) } : {}),
  };
  for (const field of TYPE_FIELDS) if (source[field] !== undefined) body[field] = source[field];
  if (Array.isArray(source.dnsServers)) {
    body.dnsServers = source.dnsServers.map((server) =>
      typeof server === 'string' ? server : String((server as { serverName?: unknown }).serverName ?? ''),
    );
  }
  return body;
}

export function tests(caller: Caller) {
  const tests = {
    /** Every test of the account group, all types, summary fields only. */
    list: async (aid?: string, signal?: AbortSignal) =>
      caller.list('tests', testSchema, 'tests', 'tests', { aid, signal }),
    listByType: async (type: PlatformApiTestType, aid?: string, signal?: AbortSignal) =>
      caller.list('tests', testSchema, testPath(type), `${type} tests`, { aid, signal }),
    get: async (
      type: PlatformApiTestType,
      testId: string,
      options: { aid?: string; expand?: string[]; versionId?: string; signal?: AbortSignal } = {},
    ) =>
      caller.request(testSchema, testPath(type, testId), 'test', {
        aid: options.aid,
        query: { ...(options.expand?.length ? { expand: options.expand } : {}), versionId: options.versionId },
        signal: options.signal,
      }),
    /** The versions of a test's settings, newest first (at most `limit`, 50 by default, 500 at most). */
    history: async (testId: string, options: { aid?: string; limit?: number; signal?: AbortSignal } = {}) =>
      caller.list(
        'testVersionHistory',
        testVersionSchema,
        `tests/${encodeURIComponent(testId)}/history`,
        'test history',
        {
          aid: options.aid,
          query: { limit: options.limit },
          signal: options.signal,
        },
      ),
    create: async (type: PlatformApiTestType, body: TestCreateBody, aid?: string, signal?: AbortSignal) =>
      caller.request(testSchema, testPath(type), 'created test', {
        method: 'POST',
        body,
        aid,
        signal,
        idempotent: false,
      }),
    /**
     * Changes a test. Agent-to-server and BGP take partial updates; the other types reuse the creation
     * schema on PUT, so their current configuration is read and sent back with the changes.
     */
    update: async (
      type: PlatformApiTestType,
      testId: string,
      changes: Partial<TestCreateBody>,
      aid?: string,
      signal?: AbortSignal,
    ) => {
      const body = PARTIAL_UPDATE_TYPES.has(type)
        ? changes
        : {
            ...writableTestBody(await tests.get(type, testId, { aid, expand: ['agent', 'alert-rule'], signal })),
            ...changes,
          };
      return caller.request(testSchema, testPath(type, testId), 'updated test', {
        method: 'PUT',
        body,
        aid,
        signal,
      });
    },
    delete: async (type: PlatformApiTestType, testId: string, aid?: string, signal?: AbortSignal) =>
      caller.http.call<void>(caller.auth, testPath(type, testId), {
        method: 'DELETE',
        aid,
        signal,
      }),
  };
  return tests;
}
