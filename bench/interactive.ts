/**
 * bench:interactive - a person first at a customer's budget. Two web instances and two workers on PostgreSQL, the
 * standalone sandbox's large world at LIMIT calls a minute. For MINUTES, health checks (always REPORTS at once, each
 * of REPORT_GROUPS account groups, so that the work left when the minutes end drains in a few minutes) and
 * a 120-test bulk run for one organization keep its budget saturated, while a person checks the customer's token
 * (its account groups) every 2 s, on either web instance in turn. It runs twice, each on a fresh deployment: first
 * come, first served (PLATFORM_LANES=false: what the product did before lanes, the baseline), then with lanes.
 * Needs DATABASE_URL (a PostgreSQL server where it may create and drop databases).
 *
 * p50-ms, p95-ms        = how long the person's check took to answer.
 * rate/limit            = the calls the sandbox accepted for the organization per minute, over the limit: from the
 *   first rate-limit window to the last one begun while the work was saturating (that one excluded), the
 *   person's calls included.
 * background-rate/limit = the same without the person's calls (a check every 2 s is 30 calls a minute).
 * 429-share             = calls answered 429 over all calls the sandbox judged for the organization.
 * lost                  = health checks that did not end done, and bulk items that did not end done.
 * duplicated            = tests of the bulk run found more than once at the platform, and Webex messages the sandbox
 *   received beyond the deliveries the product recorded.
 * Last line: `interactive: p50-ms=… p95-ms=… rate/limit=… background-rate/limit=… 429-share=… lost=0 duplicated=0`.
 */
import { bgpTemplate } from '../apps/server/test/support/templates.js';
import { Cluster, exitWithoutPostgres } from '../apps/server/test/cluster.js';

const LIMIT = Number(process.env.BENCH_INTERACTIVE_LIMIT ?? 240);
const MINUTES = Number(process.env.BENCH_INTERACTIVE_MINUTES ?? 5);
const REPORTS = Number(process.env.BENCH_INTERACTIVE_REPORTS ?? 3);
const REPORT_GROUPS = Number(process.env.BENCH_INTERACTIVE_REPORT_GROUPS ?? 2);
const BULK_TESTS = 120;
const CHECK_EVERY_MS = 2_000;
const EMAIL = 'bench@interactive.test';
const PASSWORD = 'a long bench password';

exitWithoutPostgres('bench:interactive');

interface Group {
  aid: string;
  accountGroupName: string;
  organizationId: string;
  organizationName: string;
}
interface Outcome {
  p50: number;
  p95: number;
  rate: number;
  backgroundRate: number;
  share: number;
  lost: number;
  duplicated: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

async function phase(lanes: boolean): Promise<Outcome> {
  const label = lanes ? 'lanes' : 'first come';
  const cluster = new Cluster({
    jobLeaseMs: 60_000,
    sandbox: { SANDBOX_SIZE: 'large', SANDBOX_RATE_LIMIT: String(LIMIT) },
  });
  try {
    await cluster.open();
    const sandbox = (url: string, init?: RequestInit) => cluster.sandboxCall(url, init);
    const env = { PLATFORM_LANES: String(lanes) };
    const started = await cluster.start([
      { name: 'web-1', worker: false, env },
      { name: 'web-2', worker: false, env },
      { name: 'worker-1', worker: true, env },
      { name: 'worker-2', worker: true, env },
    ]);
    const browser = await cluster.signedIn(started.slice(0, 2), EMAIL, PASSWORD);
    const admin = await cluster.orgAdmin();
    const { accountGroups } = (
      await browser.call<{ accountGroups: Group[] }>('POST', '/api/account-groups', { token: admin.token })
    ).body;
    const groups = accountGroups
      .filter((group) => group.organizationId === admin.organizationId)
      .map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
    const organization = { id: admin.organizationId, name: accountGroups[0]?.organizationName ?? '' };
    const bulkGroups = groups.slice(0, 10);
    const templates = Array.from({ length: Math.ceil(BULK_TESTS / bulkGroups.length) }, (_, index) =>
      bgpTemplate(`Interactive bench ${index + 1}`),
    );

    const begun = Date.now();
    const until = begun + MINUTES * 60_000;
    const report = async () => {
      const created = await browser.call<{ id: string }>('POST', '/api/reports', {
        kind: 'ahc-v7',
        token: admin.token,
        organization,
        accountGroups: groups.slice(0, REPORT_GROUPS),
        options: {},
      });
      if (created.status !== 202) throw new Error(`a health check was refused: ${JSON.stringify(created.body)}`);
      return created.body.id;
    };
    const bulk = await browser.call<{ id: string }>('POST', '/api/bulk/runs', {
      kind: 'tests',
      token: admin.token,
      organization,
      accountGroups: bulkGroups,
      templates,
    });
    if (bulk.status !== 202) throw new Error(`the bulk run was refused: ${JSON.stringify(bulk.body)}`);
    const reports: string[] = [];
    for (let index = 0; index < REPORTS; index++) reports.push(await report());

    // The person: a token check every 2 s, whatever the previous one is doing; and the work kept saturating.
    const checks: Promise<{ ms: number; ok: boolean }>[] = [];
    const statuses = new Map<string, string>();
    let nextCheck = Date.now();
    while (Date.now() < until) {
      if (Date.now() >= nextCheck) {
        nextCheck += CHECK_EVERY_MS;
        const sent = performance.now();
        checks.push(
          browser
            .call('POST', '/api/account-groups', { token: admin.token })
            .then((answer) => ({ ms: performance.now() - sent, ok: answer.status === 200 })),
        );
      }
      for (const id of reports) {
        if (statuses.has(id)) continue;
        const { status } = (await browser.call<{ status: string }>('GET', `/api/reports/${id}`)).body;
        if (status === 'done' || status === 'failed') {
          statuses.set(id, status);
          reports.push(await report());
        }
      }
      process.stderr.write(
        `\r${label}: ${Math.round((Date.now() - begun) / 1000)} s of ${MINUTES * 60}, ${checks.length} checks`,
      );
      await sleep(Math.max(0, Math.min(500, nextCheck - Date.now())));
    }
    const saturatedUntil = Date.now();
    const answered = await Promise.all(checks);

    // The work drains; then what ended, and what the platform holds.
    process.stderr.write(`\n${label}: waiting for the work to finish\n`);
    for (;;) {
      for (const id of reports) {
        if (statuses.has(id)) continue;
        const { status } = (await browser.call<{ status: string }>('GET', `/api/reports/${id}`)).body;
        if (status === 'done' || status === 'failed') statuses.set(id, status);
      }
      const run = (await browser.call<{ status: string }>('GET', `/api/bulk/runs/${bulk.body.id}`)).body;
      if (statuses.size === reports.length && /^(done|failed)$/.test(run.status)) break;
      await sleep(2_000);
    }
    const run = (await browser.call<{ totals: Record<string, number> }>('GET', `/api/bulk/runs/${bulk.body.id}`)).body;
    const stats = (await (await sandbox('/te/stats')).json()) as {
      windows: { orgId: string; startedAt: number; count: number }[];
      organizations: { orgId: string; accepted: number; refused429: number }[];
    };
    const windows = stats.windows.filter(
      (window) => window.orgId === admin.organizationId && window.startedAt <= saturatedUntil,
    );
    const first = windows[0];
    const last = windows.at(-1);
    if (!first || !last || windows.length < 2)
      throw new Error('the run spanned fewer than two windows: raise BENCH_INTERACTIVE_MINUTES');
    const minutes = (last.startedAt - first.startedAt) / 60_000;
    const accepted = windows.slice(0, -1).reduce((sum, window) => sum + window.count, 0);
    const checksThen = answered.filter((_check, index) => {
      const at = begun + index * CHECK_EVERY_MS;
      return at >= first.startedAt && at < last.startedAt;
    }).length;
    const counts = stats.organizations.find((entry) => entry.orgId === admin.organizationId);
    const judged = (counts?.accepted ?? 0) + (counts?.refused429 ?? 0);

    let duplicatedTests = 0;
    for (const group of bulkGroups) {
      const listed = await sandbox(`/te/v7/tests?aid=${group.aid}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const names = ((await listed.json()) as { tests: { testName: string }[] }).tests
        .map((test) => test.testName)
        .filter((name) => name.startsWith('Interactive bench '));
      duplicatedTests += names.length - new Set(names).size;
    }
    const { items } = (await (await sandbox(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`)).json()) as {
      items: unknown[];
    };
    const [recorded] = await cluster.query<{ count: number }>(
      "select count(*)::int as count from webex_deliveries where status = 'sent'",
    );
    const times = answered
      .filter((check) => check.ok)
      .map((check) => check.ms)
      .sort((a, b) => a - b);
    const outcome: Outcome = {
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
      rate: accepted / minutes / LIMIT,
      backgroundRate: (accepted - checksThen) / minutes / LIMIT,
      share: judged === 0 ? 0 : (counts?.refused429 ?? 0) / judged,
      lost:
        reports.filter((id) => statuses.get(id) !== 'done').length +
        answered.filter((check) => !check.ok).length +
        ((run.totals.total ?? 0) - (run.totals.done ?? 0)),
      duplicated: duplicatedTests + items.length - (recorded?.count ?? 0),
    };
    console.log(
      `${label}: checks=${answered.length} reports=${reports.length} windows=${windows.length} accepted=${counts?.accepted ?? 0} refused429=${counts?.refused429 ?? 0} bulk=${run.totals.done ?? 0}/${run.totals.total ?? 0}`,
    );
    return outcome;
  } finally {
    await cluster.close();
  }
}

const line = (name: string, outcome: Outcome) =>
  `${name}: p50-ms=${Math.round(outcome.p50)} p95-ms=${Math.round(outcome.p95)} rate/limit=${outcome.rate.toFixed(2)} background-rate/limit=${outcome.backgroundRate.toFixed(2)} 429-share=${outcome.share.toFixed(3)} lost=${outcome.lost} duplicated=${outcome.duplicated}`;

const baseline = await phase(false);
console.log(line('first-come', baseline));
const lanes = await phase(true);
console.log(line('interactive', lanes));
