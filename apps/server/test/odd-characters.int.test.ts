import { beforeAll, describe, expect, it } from 'vitest';
import { healthFindingsSchema, type HealthFindings } from '@ce/contract';
import { DATABASES, reportFile, reportSuite, testClock, untilFinished } from './build-test-app.js';
import { ReportsRepository } from '../src/modules/reports/reports.repository.js';

/** Raw JSON text: the escapes a customer's request carries, not characters this file's strings would hold. */
const LONE_SURROGATE_NAME = String.raw`\ud800Intranet lone`;
const NUL_NAME = String.raw`Intranet\u0000nul`;

/**
 * A test the customer renamed with a character PostgreSQL cannot store (a lone surrogate, U+0000): the health check of
 * its account group still finishes, and names it with U+FFFD where the odd character was.
 */
describe.each(DATABASES)('a test named with a character the database cannot store (%s)', (database) => {
  const suite = reportSuite(database, 'tam@demo.local', { clock: testClock(), rateLimitPerMinute: 100_000 });
  let findings: HealthFindings;
  let reportId = '';
  const renamed: string[] = [];

  beforeAll(async () => {
    const world = suite.world();
    const globex = world.organizations[1];
    const group = world.accountGroups.find((candidate) => candidate.orgId === globex?.orgId);
    const token = world.tokens.find((candidate) => candidate.kind === 'org-admin' && candidate.orgId === globex?.orgId);
    if (!globex || !group || !token) throw new Error('the demo world has a second organization');
    const tests = world.tests.filter((test) => test.aid === group.aid && test.type === 'http-server').slice(0, 2);
    expect(tests).toHaveLength(2);
    for (const [index, name] of [LONE_SURROGATE_NAME, NUL_NAME].entries()) {
      const testId = tests[index]?.testId ?? '';
      const put = await suite.app.app.inject({
        method: 'PUT',
        url: `/sandbox/te/v7/tests/http-server/${testId}?aid=${group.aid}`,
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        payload: `{"testName":"${name}"}`,
      });
      expect(put.statusCode, put.body).toBe(200);
      renamed.push(testId);
    }
    const created = await suite.client.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'ahc-v7',
        token: token.token,
        organization: { id: globex.orgId, name: globex.name },
        accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
        options: {},
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    reportId = created.json<{ id: string }>().id;
    const report = await untilFinished(
      () =>
        suite.client
          .request({ method: 'GET', url: `/api/reports/${reportId}` })
          .then((response) => response.json<Parameters<typeof reportFile>[1] & { status: string; error?: string }>()),
      300_000,
    );
    expect(report.status, report.error ?? '').toBe('done');
    findings = healthFindingsSchema.parse(
      JSON.parse((await reportFile(suite.client, report, 'findings.json')).toString()),
    );
  }, 600_000);

  it('finishes, and its findings name both tests with U+FFFD for the odd character', () => {
    const measured = findings.measurements?.tests;
    expect(measured?.ok).toBe(true);
    const names = new Map((measured?.ok ? measured.value : []).map((test) => [test.testId, test.testName]));
    expect(names.get(renamed[0] ?? '')).toBe('\uFFFDIntranet lone');
    expect(names.get(renamed[1] ?? '')).toBe('Intranet\uFFFDnul');
    // Wherever a check lists one of them as evidence, it is under the same name.
    const evidence = findings.checks.flatMap((check) => check.items).filter((item) => renamed.includes(item.id));
    for (const item of evidence) expect(item.name).toBe(names.get(item.id));
  });

  it('keeps any answer in the read journal, odd characters stored as U+FFFD', async () => {
    // Written straight to the journal, past the platform client: the column itself makes the JSON well-formed.
    const journal = new ReportsRepository(suite.app.database.db).journal(reportId);
    const answer = { tests: [{ testName: '\ud800lone', '\u0000key': 'a\u0000b', pair: '\ud83d\ude00' }] };
    await journal.put('/odd-characters', answer);
    expect(await journal.get('/odd-characters')).toEqual({
      body: { tests: [{ testName: '\uFFFDlone', '\uFFFDkey': 'a\uFFFDb', pair: '\ud83d\ude00' }] },
    });
  });
});
