import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MEASURED_FELL_POINTS,
  MEASURED_FELL_TESTS,
  REVIEW_KEY_TESTS_MAX,
  REVIEW_MESSAGES,
  type Measurements,
  type ReportRequest,
  type ReviewNarrativeResponse,
  type ReviewPreview,
} from '@ce/contract';
import { planSlides, type ReviewPack } from '../src/modules/review/index.js';
import {
  reportFile,
  requestReport,
  signedInClient,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import {
  keptMeasurements,
  keptScore,
  measuredGroup,
  measuredWatchSuite,
  runWatchNow,
} from './support/measured-watch.js';

const run = promisify(execFile);
const SOFFICE = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((candidate) => existsSync(candidate));
const flat = (text: string) => text.replace(/\s+/g, ' ');
type Json = Record<string, unknown>;

/** The quarter holding `time`, and the one before, as the pack's period (first and last day). */
function quarterOf(time: number, back = 0) {
  const date = new Date(time);
  const index = date.getUTCFullYear() * 4 + Math.floor(date.getUTCMonth() / 3) - back;
  const year = Math.floor(index / 4);
  const month = (index % 4) * 3;
  const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
  return { kind: 'quarter' as const, from: day(year, month, 1), to: day(year, month + 3, 0) };
}

/**
 * A quarter's review pack for a sandbox customer with two real watch runs stored: its figures are the stored
 * measurements' (and, with a cut-off between the runs, the first run's only), its outages the sandbox's; what could not
 * be determined says why; the deck opens in LibreOffice with every slide's title; the preview shows the pack's figures;
 * the narrative is kept per customer, for those with the health check's capability, behind CSRF.
 */
describe('the review pack', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let customer: SandboxCustomer;
  let first: Measurements;
  let latest: Measurements;
  let scores: (number | null)[];
  let cutOffBetween = '';
  const period = quarterOf(Date.now());
  const group = () => measuredGroup(customer);
  const narrative = {
    goals: ['Keep payroll reachable from every branch'],
    highlights: ['Branch rollout finished on time'],
    nextSteps: [{ step: 'Replace the agent offline in Madrid', owner: 'Dana Admin', due: '2027-01-15' }],
  };
  const pack = async (options: Json, token?: string) => {
    const report: ReportRequest = await requestReport(tam, customer, 'review-pack', {
      accountGroups: [group()],
      options,
      timeout: 180_000,
      ...(token ? { token } : {}),
    });
    expect(report.status, report.error ?? '').toBe('done');
    return { report, pack: JSON.parse((await reportFile(tam, report, '.json')).toString('utf8')) as ReviewPack };
  };

  beforeAll(async () => {
    const suite = await measuredWatchSuite();
    ({ testApp, tam, customer } = suite);
    const { watch } = suite;
    const one = await runWatchNow(tam, watch, 1);
    cutOffBetween = new Date().toISOString();
    const two = await runWatchNow(tam, watch, 2);
    first = await keptMeasurements(testApp, one.id);
    latest = await keptMeasurements(testApp, two.id);
    scores = [await keptScore(testApp, one.id), await keptScore(testApp, two.id)];
  }, 700_000);
  afterAll(async () => {
    await testApp?.close();
  });

  let built: { report: ReportRequest; pack: ReviewPack };

  it("gives the stored measurements' figures and the sandbox's outages for the cut-off", async () => {
    // The narrative is kept by its own call; the pack, asked without one, says the kept one.
    const kept = await tam.request({
      method: 'PUT',
      url: '/api/review-narrative',
      payload: { organizationId: customer.organization.id, narrative },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    built = await pack({ period });
    const { pack: made } = built;
    expect(made.periodLabel).toMatch(/^Q[1-4] \d{4}$/);
    expect(made.from).toBe(`${period.from}T00:00:00.000Z`);
    const units = made.units.content as Exclude<ReviewPack['units']['content'], { unknown: string }>;
    if (!latest.units.ok) throw new Error('the latest run read no units');
    expect(units).toMatchObject({
      used: latest.units.value.used,
      projected: latest.units.value.projected,
      included: latest.units.value.included,
    });
    expect(units.largestConsumers.map((row) => row.units)).toEqual(latest.units.value.consumers.map((row) => row.used));
    const availability = made.availability.content as Exclude<
      ReviewPack['availability']['content'],
      { unknown: string }
    >;
    // Followed without a choice: the tests that fell between the runs (the most first), then the latest's worst.
    const tests = (latest.tests.ok ? latest.tests.value : []).filter((test) => test.availability !== null);
    const before = new Map((first.tests.ok ? first.tests.value : []).map((test) => [test.testId, test.availability]));
    const drop = (test: (typeof tests)[number]) =>
      (before.get(test.testId) ?? test.availability ?? 0) - (test.availability ?? 0);
    const fell = tests
      .filter((test) => drop(test) >= MEASURED_FELL_POINTS)
      .sort((a, b) => drop(b) - drop(a) || a.testName.localeCompare(b.testName))
      .slice(0, MEASURED_FELL_TESTS);
    const worst = [
      ...fell,
      ...tests
        .filter((test) => !fell.includes(test))
        .sort((a, b) => (a.availability ?? 0) - (b.availability ?? 0) || a.testName.localeCompare(b.testName)),
    ].slice(0, REVIEW_KEY_TESTS_MAX);
    expect(availability.tests.map((test) => test.test)).toEqual(
      worst.map((test) => `${test.testName} (${test.accountGroup})`),
    );
    // The week both runs fall in shows the latest; the weeks before any run show none, not 0.
    expect(availability.tests.map((test) => test.availability.at(-1))).toEqual(worst.map((test) => test.availability));
    expect(availability.tests.every((test) => test.availability.slice(0, -1).every((value) => value === null))).toBe(
      true,
    );
    const alerts = made.alerts.content as Exclude<ReviewPack['alerts']['content'], { unknown: string }>;
    const rules = latest.rules.ok ? latest.rules.value : [];
    expect(alerts.volume.at(-1)).toBe(rules.reduce((sum, rule) => sum + rule.alerts, 0));
    expect(alerts.volume.slice(0, -1).every((value) => value === null)).toBe(true);
    expect(alerts.silentRules).toHaveLength(rules.filter((rule) => rule.alerts === 0).length);
    const agents = made.agents.content as Exclude<ReviewPack['agents']['content'], { unknown: string }>;
    expect(agents.offline.map((agent) => agent.lastSeen)).toEqual(
      latest.agents.ok ? latest.agents.value.offline.map((agent) => agent.since ?? '') : [],
    );
    const health = made.health.content as Exclude<ReviewPack['health']['content'], { unknown: string }>;
    expect(health.points.map((point) => point.score)).toEqual(scores);
    const recommendations = made.recommendations.content as { items: { recommendation: string; owner: string }[] };
    expect(recommendations.items[0]).toMatchObject({
      recommendation: narrative.nextSteps[0]?.step,
      owner: 'Dana Admin',
    });
    const summary = made.executiveSummary.content as { goals: string[]; outcomes: string[] };
    expect(summary.goals).toEqual(narrative.goals);
    expect(summary.outcomes[0]).toBe(narrative.highlights[0]);

    // The sandbox's truth: the outages that touched the group's tests in the period up to the cut-off.
    const truth = await testApp.app.inject({
      method: 'POST',
      url: `/sandbox/te/v7/internet-insights/outages/filter?aid=${group().aid}`,
      headers: { authorization: `Bearer ${customer.token}` },
      payload: {
        startDate: made.from.replace(/\.\d{3}Z$/, 'Z'),
        endDate: made.cutOff.replace(/\.\d{3}Z$/, 'Z'),
        outageScope: 'with-affected-test',
      },
    });
    expect(truth.statusCode, truth.body).toBe(200);
    const outages = truth.json<{ outages: { type?: string }[] }>().outages.filter((outage) => outage.type !== 'app');
    const found = made.outages.content as Exclude<ReviewPack['outages']['content'], { unknown: string }>;
    expect(found.outages).toHaveLength(outages.length);
    expect(found.outages.filter((outage) => outage.evidenceUrl).length).toBe(Math.min(5, outages.length));
  });

  it('with a cut-off between the runs, counts the first run only, so the figures reproduce', async () => {
    const { pack: cut } = await pack({ period, cutOff: cutOffBetween });
    expect(cut.cutOff).toBe(cutOffBetween);
    if (!first.units.ok) throw new Error('the first run read no units');
    expect(cut.units.content).toMatchObject({ used: first.units.value.used, projected: first.units.value.projected });
    expect((cut.health.content as { points: { score: number }[] }).points.map((point) => point.score)).toEqual([
      scores[0],
    ]);
  });

  it('says what it could not determine instead of a number: a period before the first run, a missing permission', async () => {
    const { pack: before, report } = await pack({ period: quarterOf(Date.now(), 1) });
    for (const section of [before.units, before.availability, before.alerts, before.agents, before.changes])
      expect(section.content).toEqual({ unknown: REVIEW_MESSAGES.noStoredMeasurements });
    expect(report.artifacts.map((artifact) => artifact.filename.split('.').at(-1)).sort()).toEqual([
      'json',
      'pdf',
      'pptx',
    ]);

    const readOnly = testApp.sandbox?.platform.world.tokens.find((token) => token.kind === 'read-only')?.token ?? '';
    const { pack: refused } = await pack({ period }, readOnly);
    const found = refused.outages.content as Exclude<ReviewPack['outages']['content'], { unknown: string }>;
    const linkable = found.outages.length;
    if (linkable > 0) {
      expect(found.outages.every((outage) => outage.evidenceUrl === undefined)).toBe(true);
      expect(found.notes?.join(' ')).toContain('permission needed: Create snapshot shares');
    } else expect(found.notes ?? []).toEqual([]);
  });

  it('opens in LibreOffice with every slide and its title', async () => {
    expect(SOFFICE, 'LibreOffice is needed: apt-get install libreoffice-impress').toBeDefined();
    const folder = await mkdtemp(path.join(tmpdir(), 'review-pack-'));
    try {
      const deck = path.join(folder, 'pack.pptx');
      await writeFile(deck, await reportFile(tam, built.report, '.pptx'));
      await run(
        SOFFICE ?? 'soffice',
        [
          `-env:UserInstallation=file://${folder}/profile`,
          '--headless',
          '--convert-to',
          'pdf',
          '--outdir',
          folder,
          deck,
        ],
        { timeout: 120_000 },
      );
      const { stdout } = await run('pdftotext', ['-layout', path.join(folder, 'pack.pdf'), '-']);
      const pages = stdout.split('\f').map(flat);
      planSlides(built.pack).forEach((slide, index) => expect(pages[index]).toContain(flat(slide.title)));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 150_000);

  it("previews the pack's slides from the database, the platform's sections said to come later", async () => {
    const response = await tam.request({
      method: 'POST',
      url: '/api/review-preview',
      payload: { organizationId: customer.organization.id, period, cutOff: built.pack.cutOff },
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<ReviewPreview>();
    const platform = (title: string) => /Outages|Events/.test(title);
    expect(preview.slides.filter((slide) => !platform(slide.title))).toEqual(
      planSlides(built.pack).filter((slide) => !platform(slide.title)),
    );
    expect(preview.platformLater.length).toBeGreaterThan(0);
    // The worst test of the latest run is proposed (after any that fell over the period).
    expect(preview.proposedKeyTests.map((test) => test.availability)).toContain(
      Math.min(...(latest.tests.ok ? latest.tests.value : []).flatMap((test) => test.availability ?? [])),
    );
  });

  it('keeps the narrative per customer, for those with the capability, behind CSRF', async () => {
    const organizationId = customer.organization.id;
    const url = '/api/review-narrative';
    const read = (client: TestClient) =>
      client.request({ method: 'POST', url: `${url}/read`, payload: { organizationId } });
    const kept = (await read(tam)).json<ReviewNarrativeResponse>();
    expect(kept.narrative).toEqual(narrative);
    expect(kept.updatedBy).not.toBeNull();
    const next = { goals: ['Fewer alerts at night'], highlights: [], nextSteps: [] };
    const saved = await tam.request({ method: 'PUT', url, payload: { organizationId, narrative: next } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await read(tam)).json<ReviewNarrativeResponse>().narrative).toEqual(next);
    const forged = { method: 'PUT' as const, url, payload: { organizationId, narrative }, csrf: false };
    expect((await tam.request(forged)).statusCode).toBe(403);
    expect((await read(tam)).json<ReviewNarrativeResponse>().narrative).toEqual(next);
    const user = await signedInClient(testApp.app, 'user@demo.local');
    expect((await read(user)).statusCode).toBe(403);
    expect((await user.request({ method: 'PUT', url, payload: { organizationId, narrative: next } })).statusCode).toBe(
      403,
    );
  });
});
