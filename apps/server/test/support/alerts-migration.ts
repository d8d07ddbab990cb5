import { afterAll, beforeAll, expect } from 'vitest';
import type { MigrationRequest, MigrationRun } from '@ce/contract';
import {
  createTestApp,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type DatabaseKind,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from '../build-test-app.js';

type Input = Omit<Partial<MigrationRequest>, 'options'> & { options?: Partial<MigrationRequest['options']> };

/** The rules of the demo world's migration cases that the suites migrate by default. */
export const MIGRATED = ['Migration: portal latency', 'Migration: portal errors', 'Migration: portal availability'];

/**
 * What the alerts-migration suites share: the app and a signed-in TAM (made before and closed after the
 * suite), the demo world's groups of the migration cases, the requests, and the snapshot an undo must
 * restore exactly.
 */
export function migrationSuite(kind: DatabaseKind) {
  let testApp: TestApp;
  let tam: TestClient;
  let acme: SandboxCustomer;
  beforeAll(async () => {
    testApp = await createTestApp(kind);
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    acme = await sandboxCustomer(testApp, tam);
  });
  afterAll(async () => {
    await testApp.close();
  });
  const world = () => {
    if (!testApp.sandbox) throw new Error('the sandbox is mounted in tests');
    return testApp.sandbox.platform.world;
  };
  const group = (name: string) => {
    const found = world().accountGroups.find((candidate) => candidate.accountGroupName === name);
    if (!found) throw new Error(`no group ${name}`);
    return found;
  };
  const source = () => group('Acme - Data Centers');
  const ruleIdOf = (name: string) =>
    world().alertRules.find((rule) => rule.aid === source().aid && rule.ruleName === name)?.ruleId ?? '';

  /**
   * A group's rules as data, ids left out (a restored rule gets a new id), tests and integrations as sets
   * (the platform groups notifications by kind, so their order carries nothing): what "exactly" compares.
   */
  const rulesOf = (aid: string) =>
    world()
      .alertRules.filter((rule) => rule.aid === aid)
      .map(({ ruleId: _id, ...rule }) => ({
        ...rule,
        testIds: [...rule.testIds].sort(),
        integrations: [...(rule.integrations ?? [])].sort((a, b) => a.integrationId.localeCompare(b.integrationId)),
      }))
      .sort((a, b) => a.ruleName.localeCompare(b.ruleName));
  const windowsOf = (aid: string) =>
    world()
      .suppressionWindows.filter((window) => window.aid === aid)
      .map(({ alertSuppressionWindowId: _id, ...window }) => window)
      .sort((a, b) => a.name.localeCompare(b.name));

  const finished = (id: string) =>
    untilFinished(() =>
      tam
        .request({ method: 'GET', url: `/api/alerts-migration/runs/${id}` })
        .then((response) => response.json<MigrationRun>()),
    );
  return {
    app: () => testApp,
    tam: () => tam,
    acme: () => acme,
    world,
    source,
    saas: () => group('Acme - SaaS Apps'),
    staging: () => group('Acme - Staging'),
    ruleIdOf,
    rulesOf,
    snapshot: (...aids: string[]) => structuredClone(aids.map((aid) => [rulesOf(aid), windowsOf(aid)])),
    request: (changes: Input = {}) => ({
      token: acme.token,
      organization: acme.organization,
      aid: source().aid,
      ruleIds: MIGRATED.map(ruleIdOf),
      targets: [{ aid: group('Acme - SaaS Apps').aid }],
      ...changes,
      options: {
        mode: 'copy',
        onConflict: 'ask',
        whenNoTestsLeft: 'keep',
        keepDefault: false,
        includeWindows: false,
        ...changes.options,
      },
    }),
    async start(payload: object) {
      const response = await tam.request({ method: 'POST', url: '/api/alerts-migration/runs', payload });
      expect(response.statusCode, response.body).toBe(202);
      return response.json<MigrationRun>();
    },
    finished,
    async undo(id: string, payload: object = { token: acme.token }) {
      const response = await tam.request({ method: 'POST', url: `/api/alerts-migration/runs/${id}/undo`, payload });
      expect(response.statusCode, response.body).toBe(202);
      return finished(response.json<MigrationRun>().id);
    },
  };
}
