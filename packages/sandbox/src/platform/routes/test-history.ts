import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Test, TestVersion } from '../model.js';
import type { PlatformState } from '../state.js';
import { problem, queryOf } from './http.js';
import type { RouteContext } from './context.js';

const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * A seeded test's versions, derived (not stored): its creation, and its last change when it has one. At the
 * sandbox's first write to the test they are kept, with its settings before the write (the only ones known).
 */
function seededVersions(test: Test): Omit<TestVersion, 'snapshot'>[] {
  const versions = [
    {
      versionId: `${test.testId}-1`,
      testId: test.testId,
      versionTimestamp: test.createdDate,
      createdBy: test.createdBy,
    },
  ];
  if (test.modifiedDate !== test.createdDate)
    versions.push({
      versionId: `${test.testId}-2`,
      testId: test.testId,
      versionTimestamp: test.modifiedDate,
      createdBy: test.modifiedBy,
    });
  return versions;
}

/** Every version of a test, newest first. */
export function versionsOf(state: PlatformState, test: Test): Omit<TestVersion, 'snapshot'>[] {
  const stored = state.world.testVersions.filter((version) => version.testId === test.testId);
  // A written test's seeded versions were kept at its first write (its dates have moved on since).
  const versions = stored.length ? stored : seededVersions(test);
  return versions
    .map(({ versionId, testId, versionTimestamp, createdBy }) => ({ versionId, testId, versionTimestamp, createdBy }))
    .sort((a, b) => b.versionTimestamp.localeCompare(a.versionTimestamp));
}

/** A test's settings at a version: kept by a write, or the current ones for a seeded version not yet written over. */
export function testAtVersion(state: PlatformState, test: Test, versionId: string): Test | undefined {
  const kept = state.world.testVersions.find(
    (version) => version.testId === test.testId && version.versionId === versionId,
  );
  if (kept) return kept.snapshot;
  if (state.world.testVersions.some((version) => version.testId === test.testId)) return undefined;
  return seededVersions(test).some((version) => version.versionId === versionId) ? test : undefined;
}

const TEST_PATH = /^\/tests\/[a-z-]+(?:\/(\d+))?$/;

const pathOf = (request: FastifyRequest) => request.url.replace(/^.*\/v7/, '').split('?')[0] ?? '';

/**
 * `/tests/{testId}/history`, and the version of its settings each write of a test leaves (the settings before its
 * first write are kept too). The audit event of every write is `write-audit.ts`'s.
 */
export function testHistoryRoutes(app: FastifyInstance, { state, worldNow, caller }: RouteContext): void {
  app.get<{ Params: { testId: string } }>('/tests/:testId/history', async (request, reply) => {
    const { group, serializer } = caller(request);
    const test = state.lookup.testsOf(group.aid).find((candidate) => candidate.testId === request.params.testId);
    if (!test) return problem(reply, 404, 'Not Found', `Test ${request.params.testId} not found`);
    const limit = Math.min(Math.max(Number(queryOf(request).limit ?? 50) || 50, 1), 500);
    return reply.type('application/json').send({
      testVersionHistory: versionsOf(state, test).slice(0, limit),
      _links: { self: serializer.link(`/tests/${test.testId}/history`) },
    });
  });

  const snapshot = (test: Test): Test => structuredClone(test);
  const keep = (test: Test, versionId: string, at: string, by: string) =>
    state.world.testVersions.push({
      versionId,
      testId: test.testId,
      versionTimestamp: at,
      createdBy: by,
      snapshot: snapshot(test),
    });

  app.addHook('preHandler', async (request) => {
    if (!request.sandboxCaller || request.method !== 'PUT') return;
    const testId = TEST_PATH.exec(pathOf(request))?.[1];
    const test = testId ? state.lookup.test(testId) : undefined;
    if (!test || state.world.testVersions.some((version) => version.testId === test.testId)) return;
    for (const seeded of seededVersions(test)) keep(test, seeded.versionId, seeded.versionTimestamp, seeded.createdBy);
  });

  // A test written keeps a version of its settings (its audit event is write-audit.ts's).
  app.addHook('onResponse', async (request, reply) => {
    const found = request.sandboxCaller;
    if (!found || !['POST', 'PUT', 'PATCH'].includes(request.method) || reply.statusCode >= 400) return;
    const path = pathOf(request);
    if (!path.startsWith('/tests/')) return;
    const user = state.world.users.find((candidate) => candidate.orgId === found.org.orgId);
    const location = String(reply.getHeader('location') ?? '');
    const testId = TEST_PATH.exec(path)?.[1] ?? /\/(\d+)$/.exec(location)?.[1];
    const test = testId ? state.lookup.test(testId) : undefined;
    if (test) keep(test, `${test.testId}-w${state.newId()}`, iso(worldNow()), user?.email ?? '');
  });
}
