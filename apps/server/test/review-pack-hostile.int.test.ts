import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_MESSAGES,
  REVIEW_SNAPSHOTS_MAX,
  type ReportRequest,
  type ReviewNarrative,
  type ReviewNarrativeResponse,
  type ReviewPreview,
} from '@ce/contract';
import { DEFAULT_SCENARIO } from '@ce/sandbox';
import type { ReviewPack } from '../src/modules/review/index.js';
import {
  createTestApp,
  reportFile,
  requestReport,
  sandboxCustomer,
  signedInClient,
  untilFinished,
  type SandboxCustomer,
  type TestApp,
  type TestClient,
} from './build-test-app.js';
import { watchRequest } from './support/watches.js';

const PUBLIC_URL = 'https://toolkit.example.test';
/** A test name as a customer may type it: controls XML forbids, a lone surrogate, a noncharacter. */
const HOSTILE_NAME = 'Payroll\u0001 HTTP\u0008\u000b \ud800\ufffe\uffff end';
type Outages = Exclude<ReviewPack['outages']['content'], { unknown: string }>;

/** The quarter holding now, as the pack's period (first and last day). */
function thisQuarter() {
  const now = new Date();
  const first = Math.floor(now.getUTCMonth() / 3) * 3;
  const day = (month: number, date: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), month, date)).toISOString().slice(0, 10);
  return { kind: 'quarter' as const, from: day(first, 1), to: day(first + 3, 0) };
}

/** What a strict XML 1.0 reader refuses in a part: bytes that are not UTF-8, characters or references it forbids. */
function xmlProblems(name: string, bytes: Uint8Array): string[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return [`${name}: not UTF-8`];
  }
  const allowed = (code: number) =>
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000;
  const raw = [...text].map((character) => character.codePointAt(0) ?? 0).filter((code) => !allowed(code));
  const referenced = [...text.matchAll(/&#(x[0-9a-f]+|\d+);/gi)]
    .map((match) => {
      const value = match[1] ?? '';
      return value.startsWith('x') || value.startsWith('X') ? parseInt(value.slice(1), 16) : Number(value);
    })
    .filter((code) => !allowed(code));
  return [...raw, ...referenced].map((code) => `${name}: U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Every XML part of an Office file, the workbooks embedded in its charts too. */
function xmlParts(file: Uint8Array, prefix = ''): [string, Uint8Array][] {
  return Object.entries(unzipSync(file)).flatMap(([name, data]): [string, Uint8Array][] =>
    /\.(xml|rels)$/.test(name)
      ? [[`${prefix}${name}`, data]]
      : name.endsWith('.xlsx')
        ? xmlParts(data, `${prefix}${name}!`)
        : [],
  );
}

/**
 * A review pack under attack: a customer's test named with characters XML forbids still gives a deck every part of
 * which parses; a pack never saves a narrative (one asked without any says the kept one); the narrative and the
 * preview are only for callers tied to the organization; a period before 2000 or whose kind and dates disagree is
 * refused in words; the evidence links open at the product's address and say the platform's limit plainly.
 */
describe('the review pack, from hostile names and callers', () => {
  let testApp: TestApp;
  let tam: TestClient;
  let proServ: TestClient;
  let customer: SandboxCustomer;
  let globex: { token: string; organizationId: string };
  const period = thisQuarter();
  const kept: ReviewNarrative = {
    goals: ['Keep payroll reachable from every branch'],
    highlights: ['Branch rollout finished on time'],
    nextSteps: [{ step: 'Replace the agent offline in Madrid', owner: 'Dana Admin', due: '2027-01-15' }],
  };
  const older: ReviewNarrative = { goals: ['An older goal'], highlights: [], nextSteps: [] };
  const read = (client: TestClient, organizationId: string, token?: string) =>
    client.request({
      method: 'POST',
      url: '/api/review-narrative/read',
      payload: { organizationId, ...(token ? { token } : {}) },
    });
  const save = (client: TestClient, organizationId: string, narrative: ReviewNarrative, token?: string) =>
    client.request({
      method: 'PUT',
      url: '/api/review-narrative',
      payload: { organizationId, narrative, ...(token ? { token } : {}) },
    });
  const preview = (client: TestClient, body: Record<string, unknown>) =>
    client.request({ method: 'POST', url: '/api/review-preview', payload: { period, ...body } });
  const refusal = (response: { statusCode: number; json: <T>() => T }) => [
    response.statusCode,
    response.json<{ error: { message: string } }>().error.message,
  ];
  const pack = async (options: Record<string, unknown>) => {
    const report: ReportRequest = await requestReport(tam, customer, 'review-pack', { options, timeout: 180_000 });
    expect(report.status, report.error ?? '').toBe('done');
    return { report, pack: JSON.parse((await reportFile(tam, report, '.json')).toString('utf8')) as ReviewPack };
  };

  beforeAll(async () => {
    testApp = await createTestApp('pglite', { WATCH_RUN_NOW_EVERY_MINUTES: '0', PUBLIC_URL });
    testApp.sandbox?.platform.setScenario({ ...DEFAULT_SCENARIO, rateLimitPerMinute: 100_000 });
    tam = await signedInClient(testApp.app, 'tam@demo.local');
    proServ = await signedInClient(testApp.app, 'proserv@demo.local');
    customer = await sandboxCustomer(testApp, tam);
    const other = testApp.sandbox?.platform.world.tokens.find(
      (token) => token.kind === 'org-admin' && token.orgId !== customer.organization.id,
    );
    if (!other) throw new Error('the sandbox has a second organization');
    globex = { token: other.token, organizationId: other.orgId };
  }, 120_000);
  afterAll(async () => {
    await testApp?.close();
  });

  it('keeps the narrative and the preview to those tied to the organization, refused in words', async () => {
    const acme = customer.organization.id;
    // ProServ may use the health checks, but owns no watch over Acme and sends no token of it.
    expect(refusal(await read(proServ, acme))).toEqual([403, REVIEW_MESSAGES.notTied]);
    expect(refusal(await save(proServ, acme, older))).toEqual([403, REVIEW_MESSAGES.notTied]);
    expect(refusal(await save(proServ, 'made-up-organization', older))).toEqual([403, REVIEW_MESSAGES.notTied]);
    expect(refusal(await preview(proServ, { organizationId: acme }))).toEqual([403, REVIEW_MESSAGES.notTied]);
    // With Acme's token: Acme's, and not Globex's.
    const saved = await save(proServ, acme, kept, customer.token);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<ReviewNarrativeResponse>()).toMatchObject({ narrative: kept, updatedBy: 'Priya ProServ' });
    expect((await read(proServ, acme, customer.token)).json<ReviewNarrativeResponse>().narrative).toEqual(kept);
    const seen = await preview(proServ, { organizationId: acme, token: customer.token });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json<ReviewPreview>().customer).toBe(customer.organization.name);
    expect(refusal(await read(proServ, globex.organizationId, customer.token))).toEqual([
      403,
      REVIEW_MESSAGES.tokenElsewhere,
    ]);
    expect(refusal(await preview(proServ, { organizationId: globex.organizationId, token: customer.token }))).toEqual([
      403,
      REVIEW_MESSAGES.tokenElsewhere,
    ]);
    // A Super User, and the owner of a watch over Acme, without a token.
    const superUser = await signedInClient(testApp.app, 'superuser@demo.local');
    expect((await read(superUser, acme)).json<ReviewNarrativeResponse>().narrative).toEqual(kept);
    // The refused save of a made-up organization kept nothing.
    expect((await read(superUser, 'made-up-organization')).json<ReviewNarrativeResponse>().updatedAt).toBeNull();
    expect(refusal(await read(tam, acme))).toEqual([403, REVIEW_MESSAGES.notTied]);
    const watch = await tam.request({
      method: 'POST',
      url: '/api/watches',
      payload: watchRequest(customer, { runs: 'health' }),
    });
    expect(watch.statusCode, watch.body).toBe(201);
    expect((await read(tam, acme)).json<ReviewNarrativeResponse>().narrative).toEqual(kept);
    expect((await preview(tam, { organizationId: acme })).statusCode).toBe(200);
    // Still behind CSRF.
    const forged = await tam.request({
      method: 'PUT',
      url: '/api/review-narrative',
      payload: { organizationId: acme, narrative: older },
      csrf: false,
    });
    expect(forged.statusCode).toBe(403);
  });

  it('refuses a period before 2000, or a month or quarter its dates are not, in words, before any job', async () => {
    const organizationId = customer.organization.id;
    const fieldOf = (response: { json: <T>() => T }) =>
      response.json<{ error: { fields?: { message: string }[]; message: string } }>().error;
    const cases: [Record<string, string>, string][] = [
      [{ kind: 'dates', from: '0000-01-01', to: '0000-01-31' }, REVIEW_MESSAGES.periodTooEarly],
      [{ kind: 'month', from: '1999-12-01', to: '1999-12-31' }, REVIEW_MESSAGES.periodTooEarly],
      [{ kind: 'month', from: '2026-11-05', to: '2026-11-30' }, REVIEW_MESSAGES.notAMonth],
      [{ kind: 'month', from: '2026-10-01', to: '2026-11-30' }, REVIEW_MESSAGES.notAMonth],
      [{ kind: 'quarter', from: '2026-08-01', to: '2026-10-31' }, REVIEW_MESSAGES.notAQuarter],
      [{ kind: 'quarter', from: '2026-07-01', to: '2026-09-29' }, REVIEW_MESSAGES.notAQuarter],
    ];
    for (const [asked, words] of cases) {
      const previewed = await preview(tam, { organizationId, period: asked });
      expect([previewed.statusCode, JSON.stringify(fieldOf(previewed))], JSON.stringify(asked)).toEqual([
        400,
        expect.stringContaining(words),
      ]);
      const requested = await tam.request({
        method: 'POST',
        url: '/api/reports',
        payload: {
          kind: 'review-pack',
          token: customer.token,
          organization: customer.organization,
          accountGroups: customer.groups,
          options: { period: asked },
        },
      });
      expect([requested.statusCode, JSON.stringify(fieldOf(requested))], JSON.stringify(asked)).toEqual([
        400,
        expect.stringContaining(words),
      ]);
    }
  });

  it('says the token lacks Tools, not the role, where the hours would be: in the preview and in the pack', async () => {
    const made = await tam.request({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Review script', expiresInDays: 1, capabilities: ['healthCheck'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const script = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      testApp.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${made.json<{ secret: string }>().secret}` },
        ...(payload ? { payload } : {}),
      });
    const response = await script('POST', '/api/review-preview', { organizationId: customer.organization.id, period });
    expect(response.statusCode, response.body).toBe(200);
    const lines = response.json<ReviewPreview>().slides.flatMap((slide) => ('lines' in slide ? slide.lines : []));
    const unknownHours = `Hours: Could not be determined: ${REVIEW_MESSAGES.hoursToken}`;
    expect(lines).toContain(unknownHours);
    // The pack the script asks for is built in the background as the token may read, not as the whole role may.
    const requested = await script('POST', '/api/reports', {
      kind: 'review-pack',
      token: customer.token,
      organization: customer.organization,
      accountGroups: customer.groups,
      options: { period, requestedWith: ['tools', 'healthCheck'] },
    });
    expect(requested.statusCode, requested.body).toBe(202);
    const url = `/api/reports/${requested.json<{ id: string }>().id}`;
    const report = await untilFinished(async () => (await script('GET', url)).json<ReportRequest>(), 180_000);
    expect(report.status, report.error ?? '').toBe('done');
    const json = report.artifacts.find((artifact) => artifact.filename.endsWith('.json'));
    const built = (await script('GET', `${url}/artifacts/${json?.id ?? ''}`)).json<ReviewPack>();
    expect(built.teamWork.content).toMatchObject({ hours: { unknown: REVIEW_MESSAGES.hoursToken } });
  });

  it('gives a deck that parses from a test named with characters XML forbids, and saves no narrative', async () => {
    // The outages of the period, as the sandbox answers them, and a test one touched, renamed by the customer.
    const aid = customer.groups.map((group) => group.aid);
    const sandbox = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      testApp.app.inject({
        method,
        url: `/sandbox/te/v7${url}`,
        headers: { authorization: `Bearer ${customer.token}` },
        ...(payload ? { payload } : {}),
      });
    let touched: { aid: string; testId: string } | undefined;
    let outages = 0;
    for (const group of aid) {
      const listed = await sandbox('POST', `/internet-insights/outages/filter?aid=${group}`, {
        startDate: `${period.from}T00:00:00Z`,
        endDate: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        outageScope: 'with-affected-test',
      });
      const network = listed
        .json<{ outages: { id: string; type?: string }[] }>()
        .outages.filter((found) => found.type !== 'app');
      outages += network.length;
      for (const outage of network) {
        const detail = await sandbox('GET', `/internet-insights/outages/net/${outage.id}?aid=${group}`);
        const testId = detail.json<{ affectedTests: { id: number }[] }>().affectedTests[0]?.id;
        touched ??= testId === undefined ? undefined : { aid: group, testId: String(testId) };
      }
    }
    if (!touched) throw new Error('an outage of the period touched a test');
    const test = testApp.sandbox?.platform.world.tests.find((candidate) => candidate.testId === touched?.testId);
    const renamed = await sandbox('PUT', `/tests/${test?.type}/${touched.testId}?aid=${touched.aid}`, {
      testName: HOSTILE_NAME,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    // Asked without a narrative, the pack says the one kept (the first test saved it).
    const first = await pack({ period });
    expect((first.pack.executiveSummary.content as { goals: string[] }).goals).toEqual(kept.goals);
    const deck = new Uint8Array(await reportFile(tam, first.report, '.pptx'));
    const parts = xmlParts(deck);
    expect(parts.filter(([name]) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).length).toBeGreaterThan(5);
    expect(parts.flatMap(([name, data]) => xmlProblems(name, data))).toEqual([]);
    const shown = 'Payroll HTTP \ufffd end';
    expect((first.pack.outages.content as Outages).outages.flatMap((outage) => outage.tests)).toContain(shown);
    expect(parts.map(([, data]) => strFromU8(data)).join('\n')).toContain(shown);

    // The evidence links open at the product's address, where the sandbox's share pages are served.
    const links = (first.pack.outages.content as Outages).outages.flatMap((outage) => outage.evidenceUrl ?? []);
    expect(links).toHaveLength(Math.min(outages, REVIEW_SNAPSHOTS_MAX));
    for (const link of links)
      expect(link).toMatch(new RegExp(`^${PUBLIC_URL.replaceAll('.', '\\.')}/sandbox/te/snapshots/[a-z]+$`));
    const opened = await testApp.app.inject({ method: 'GET', url: new URL(links[0] ?? '').pathname });
    expect([opened.statusCode, opened.body]).toEqual([200, expect.stringContaining('<p>Test: ')]);

    // The customer's own snapshots take what is left of the platform's five in five minutes.
    const end = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
    let answered = 201;
    for (let made = 0; answered === 201 && made <= REVIEW_SNAPSHOTS_MAX; made += 1)
      answered = (
        await sandbox('POST', `/tests/${touched.testId}/snapshot?aid=${touched.aid}`, {
          displayName: `Customer's own ${made}`,
          startDate: iso(end - 3_600_000),
          endDate: iso(end),
        })
      ).statusCode;
    expect(answered).toBe(429);

    // Asked with an older narrative (a rerun of an old request), the pack says it but the kept one stays.
    const again = await pack({ period, narrative: older });
    expect((again.pack.executiveSummary.content as { goals: string[] }).goals).toEqual(older.goals);
    expect((await read(tam, customer.organization.id)).json<ReviewNarrativeResponse>().narrative).toEqual(kept);
    // The platform refused its first snapshot for the organization's limit: said plainly, with no count.
    expect((again.pack.outages.content as Outages).notes).toContain(
      REVIEW_MESSAGES.noEvidenceLink(REVIEW_SNAPSHOTS_MAX),
    );
  });
});
