import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES, type CustomerTimeline, type ReportRequest } from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import type { ReviewPack } from '../src/modules/review/index.js';
import {
  createTestApp,
  reportFile,
  requestReport,
  sandboxCustomer,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';

const PUBLIC_URL = 'https://toolkit.example.test';

/** The quarter holding now, as the pack's period (first and last day). */
function thisQuarter() {
  const now = new Date();
  const first = Math.floor(now.getUTCMonth() / 3) * 3;
  const day = (month: number, date: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), month, date)).toISOString().slice(0, 10);
  return { kind: 'quarter' as const, from: day(first, 1), to: day(first + 3, 0) };
}

/**
 * What a review pack says about itself and its customer: its Webex message links to it in My Reports; the team's work
 * it counts leaves review packs out (this one and earlier ones), though the customer's timeline lists them; and the
 * preview of an organization nothing in the toolkit names is "no such customer", not a pack titled with its id.
 */
describe('the review pack, its links and what it counts', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  const period = thisQuarter();
  const pack = async () => {
    const report: ReportRequest = await requestReport(tam, customer, 'review-pack', {
      accountGroups: customer.groups.slice(0, 1),
      options: { period },
      timeout: 180_000,
    });
    expect(report.status, report.error ?? '').toBe('done');
    return { report, pack: JSON.parse((await reportFile(tam, report, '.json')).toString('utf8')) as ReviewPack };
  };

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0', PUBLIC_URL });
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    customer = await sandboxCustomer(testApp, tam);
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
  });

  it('links its Webex message to the pack in My Reports, and counts no review pack as the team’s work', async () => {
    const first = await pack();
    const second = await pack();
    const sent = (testApp.sandbox?.webex.messages ?? []).filter((each) => each.toPersonEmail === 'tam@demo.local');
    for (const { report } of [first, second]) {
      const link = `${PUBLIC_URL}/home/reports?report=${report.id}`;
      const message = sent.find((each) => each.markdown?.includes(`${REVIEW_MESSAGES.openInMyReports} ${link}`));
      expect(message?.markdown, JSON.stringify(sent.map((each) => each.markdown))).toContain('**Review pack**');
    }
    // The timeline lists the first pack as the customer's report; the second pack counts neither it nor itself.
    const timeline = await tam.request({
      method: 'GET',
      url: `/api/customers/${encodeURIComponent(customer.organization.id)}/timeline`,
    });
    expect(timeline.statusCode, timeline.body).toBe(200);
    const listed = timeline.json<CustomerTimeline>().entries.filter((entry) => entry.tool === 'reports');
    expect(listed.map((entry) => entry.path)).toContain(`/home/reports?report=${first.report.id}`);
    for (const made of [first.pack, second.pack]) expect(made.teamWork.content).toMatchObject({ items: [] });
  });

  it('previews no pack for an organization nothing names: "no such customer", in words', async () => {
    const superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    const unknown = await superUser.request({
      method: 'POST',
      url: '/api/review-preview',
      payload: { organizationId: '9001', period },
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json<{ error: { message: string } }>().error.message).toBe(REVIEW_MESSAGES.unknownCustomer('9001'));
    // Acme is named by its reports (the packs above): its preview is titled with its name, not its id.
    const acme = await superUser.request({
      method: 'POST',
      url: '/api/review-preview',
      payload: { organizationId: customer.organization.id, period },
    });
    expect(acme.statusCode, acme.body).toBe(200);
    expect(acme.json<{ customer: string }>().customer).toBe(customer.organization.name);
  });
});
