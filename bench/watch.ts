/**
 * bench:watch - Account Watch at scale. Two instances (each serving and working) on PostgreSQL, the standalone
 * sandbox's large world copied into ORGANIZATIONS organizations (each its own rate budget), WATCHES_PER watches in
 * each (one account group each, health check and backup), all due in the same minute. Each organization has the
 * platform's limit (BENCH_WATCH_LIMIT calls a minute, 240 by default) in windows of a minute, which its watches'
 * fewest calls span several of; meanwhile a person checks the first organization's token every 2 s on either
 * instance. Needs DATABASE_URL (a PostgreSQL server where it may create and drop databases).
 *
 * runs      = watches whose one run ended done with its message sent once (the sandbox received no more messages
 *   than the product recorded deliveries): 50.
 * calls/min = every call the sandbox answered for the organizations during the runs (the person's left out), over
 *   the fewest the runs can make (bench/watch-minimum.ts).
 * wall/ideal = from the first run made to the last ended, over the time the limit alone imposes on the busiest
 *   organization: its runs' fewest calls over the share of each window scheduled work may spend
 *   (PLATFORM_SCHEDULED_SHARE, half by default: issue 55), or its fewest calls and the person's over the whole limit,
 *   whichever is longer. The organizations' first windows
 *   open with the watches' creation (their tokens are checked), up to a minute before the runs: a run that ends in
 *   its fourth window can end sooner than three and a quarter windows after the first run, and the ratio be below 1.
 * interactive-p95-ms = how long the person's check took to answer, 95th percentile.
 * Then the scheduler at scale (bench/watch-due.ts): BENCH_WATCH_DUE (10,000) watches due in the same minute, made by
 * both instances' schedulers: due, made, once (watches with exactly one run for that minute), made-within-s, and the
 * scheduler before issue 56 as the baseline (one batch of 100 a minute).
 * Last line: `watch: due=… made=… once=… made-within-s=… runs=50 calls/min=… wall/ideal=… interactive-p95-ms=…`,
 * where runs = the 50 watches whose one run ended done with its message sent once.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Watch } from '@ce/contract';
import { Cluster, exitWithoutPostgres } from '../apps/server/test/cluster.js';
import { dueAtOnce } from './watch-due.js';

const ORGANIZATIONS = Number(process.env.BENCH_WATCH_ORGANIZATIONS ?? 10);
const WATCHES_PER = Number(process.env.BENCH_WATCH_PER_ORGANIZATION ?? 5);
const RUNS = process.env.BENCH_WATCH_RUNS ?? 'both';
// Watches due in the same minute for the scheduler's part (copies of the bench's, spread over its organizations).
const DUE = Number(process.env.BENCH_WATCH_DUE ?? 10_000);
// The platform's own limit and window: the lanes' shares (people first) are made for a window of a minute.
const LIMIT = Number(process.env.BENCH_WATCH_LIMIT ?? 240);
// The most of each window the watches' runs may spend (the product's default unless the bench is given another).
const SCHEDULED_SHARE = Number(process.env.PLATFORM_SCHEDULED_SHARE ?? 0.5);
const WINDOW_MS = 60_000;
const LATENCY_MS = 20;
const CHECK_EVERY_MS = 2_000;
const EMAIL = 'bench@watch.test';
const PASSWORD = 'a long bench password';
const root = path.resolve(import.meta.dirname, '..');

exitWithoutPostgres('bench:watch');

interface Group {
  aid: string;
  accountGroupName: string;
  organizationId: string;
  organizationName: string;
}
type Stats = { organizations: { orgId: string; accepted: number; refused429: number }[] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

const computed = spawnSync(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'bench/watch-minimum.ts'), String(WATCHES_PER), RUNS, String(Date.now())],
  { cwd: root, encoding: 'utf8' },
);
if (computed.status !== 0) throw new Error(`the minimum could not be computed: ${computed.stderr}`);
const { minimum } = JSON.parse(computed.stdout) as { minimum: Record<string, number> };
const perOrganization = Object.values(minimum).reduce((sum, calls) => sum + calls, 0);

const cluster = new Cluster({ jobLeaseMs: 30_000, sandbox: { SANDBOX_SIZE: 'large' } });
try {
  await cluster.open();
  const sandbox = async <T>(url: string, init?: RequestInit) =>
    (await (await cluster.sandboxCall(url, init)).json()) as T;
  // Enough workers for every run at once (they mostly wait for their organization's budget), and connections for them.
  const env = { JOB_CONCURRENCY: '25', DATABASE_POOL_SIZE: '20', PLATFORM_SCHEDULED_SHARE: String(SCHEDULED_SHARE) };
  const instances = await cluster.start([
    { name: 'instance-1', worker: true, env },
    { name: 'instance-2', worker: true, env },
  ]);
  const browser = await cluster.signedIn(instances, EMAIL, PASSWORD);
  const tokens = [(await cluster.orgAdmin()).token];
  while (tokens.length < ORGANIZATIONS) {
    const copy = await sandbox<{ tokens: { token: string; kind: string }[] }>('/te/organization-copies', {
      method: 'POST',
    });
    tokens.push(...copy.tokens.filter((token) => token.kind === 'org-admin').map((token) => token.token));
  }

  // The watches: WATCHES_PER groups of each organization, the ones the minimum was computed for.
  const organizations: string[] = [];
  for (const token of tokens.slice(0, ORGANIZATIONS)) {
    const { accountGroups } = (await browser.call<{ accountGroups: Group[] }>('POST', '/api/account-groups', { token }))
      .body;
    const chosen = accountGroups.filter((group) => group.accountGroupName in minimum);
    const organization = chosen[0];
    if (!organization || chosen.length !== WATCHES_PER) throw new Error('the copies have the groups of the world');
    organizations.push(organization.organizationId);
    for (const group of chosen) {
      const created = await browser.call<Watch>('POST', '/api/watches', {
        token,
        organization: { id: group.organizationId, name: group.organizationName },
        consent: { contactName: 'Bench Contact', contactEmail: 'contact@bench.example', days: 30 },
        accountGroups: [{ aid: group.aid, accountGroupName: group.accountGroupName }],
        runs: RUNS,
        schedule: { cadence: 'daily', time: '03:00', timeZone: 'UTC' },
        channel: { kind: 'owner' },
        speakWhen: { anyChange: true, scoreDrop: null, newFindingsAtLeast: null, drift: true, weeklyQuietLine: false },
      });
      if (created.status !== 201) throw new Error(`a watch was refused: ${JSON.stringify(created.body)}`);
    }
  }
  const limit = LIMIT;
  const scenario = await cluster.sandboxCall('/te/scenario', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs: LATENCY_MS, rateLimitPerMinute: limit, windowMs: WINDOW_MS }),
  });
  if (!scenario.ok) throw new Error(`the scenario was refused: ${await scenario.text()}`);
  const before = await sandbox<Stats>('/te/stats');

  // All due now: the scheduler (every minute) makes the runs; the person checks the first customer's token meanwhile.
  await cluster.query('update watches set next_run_at = now()');
  const total = ORGANIZATIONS * WATCHES_PER;
  const checks: { at: number; ms: number; ok: boolean }[] = [];
  const pending: Promise<void>[] = [];
  const begun = Date.now();
  let nextCheck = Date.now();
  for (;;) {
    const [ended] = await cluster.query<{ n: number; made: number }>(
      "select count(*) filter (where status in ('done', 'failed'))::int as n, count(*)::int as made from watch_runs",
    );
    if ((ended?.n ?? 0) >= total) break;
    if ((ended?.made ?? 0) > 0 && Date.now() >= nextCheck) {
      nextCheck += CHECK_EVERY_MS;
      const sent = performance.now();
      pending.push(
        browser
          .call('POST', '/api/account-groups', { token: tokens[0] })
          .then(
            (answer) =>
              void checks.push({ at: Date.now() - begun, ms: performance.now() - sent, ok: answer.status === 200 }),
          ),
      );
    }
    process.stderr.write(
      `\rwatch: ${Math.round((Date.now() - begun) / 1000)} s, ${ended?.n ?? 0} of ${total} runs ended`,
    );
    await sleep(250);
  }
  await Promise.all(pending);
  process.stderr.write('\n');
  const after = await sandbox<Stats>('/te/stats');

  const callsOf = (stats: Stats, orgId: string) => {
    const counts = stats.organizations.find((entry) => entry.orgId === orgId);
    return (counts?.accepted ?? 0) + (counts?.refused429 ?? 0);
  };
  const personCalls = checks.length;
  const used = organizations.map((orgId) => callsOf(after, orgId) - callsOf(before, orgId));
  const calls = used.reduce((sum, count) => sum + count, 0) - personCalls;
  const [span] = await cluster.query<{ ms: number }>(
    'select extract(epoch from max(finished_at) - min(created_at)) * 1000 as ms from watch_runs',
  );
  const busiest = perOrganization + personCalls;
  const ideal = Math.max(perOrganization / (limit * SCHEDULED_SHARE), busiest / limit) * WINDOW_MS;

  const runs = await cluster.query<{ watch_id: string; status: string; delivery_status: string }>(
    'select watch_id, status, delivery_status from watch_runs',
  );
  const outcomes = await cluster.query<{ status: string; delivery_status: string; error: string | null; n: number }>(
    'select status, delivery_status, error, count(*)::int as n from watch_runs group by 1, 2, 3',
  );
  for (const outcome of outcomes) process.stderr.write(`runs ${JSON.stringify(outcome)}\n`);
  const slow = checks.filter((check) => check.ms > 1_500);
  process.stderr.write(
    `person's checks over 1.5 s: ${slow.map((check) => `${Math.round(check.at / 1000)} s: ${Math.round(check.ms)} ms`).join(', ')}\n`,
  );
  for (const each of [cluster.sandbox, ...instances])
    process.stderr.write(`${each.name} printed ${Math.round(each.output().length / 1024)} KiB\n`);
  const perWatch = new Map<string, number>();
  for (const run of runs) perWatch.set(run.watch_id, (perWatch.get(run.watch_id) ?? 0) + 1);
  const { items } = await sandbox<{ items: unknown[] }>(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`);
  const [recorded] = await cluster.query<{ count: number }>(
    "select count(*)::int as count from webex_deliveries where status = 'sent' and key like 'watch-run:%'",
  );
  const duplicated = Math.max(0, items.length - (recorded?.count ?? 0));
  const once =
    runs.filter((run) => run.status === 'done' && run.delivery_status === 'sent' && perWatch.get(run.watch_id) === 1)
      .length - duplicated;
  const times = checks
    .filter((check) => check.ok)
    .map((check) => check.ms)
    .sort((a, b) => a - b);
  console.log(
    `watch: organizations=${ORGANIZATIONS} limit/window=${limit} minimum=${perOrganization * ORGANIZATIONS} calls=${calls} person-checks=${personCalls} failed-checks=${checks.filter((check) => !check.ok).length} wall-s=${Math.round(Number(span?.ms ?? 0) / 1000)} ideal-s=${Math.round(ideal / 1000)} messages=${items.length} runs-made=${runs.length}`,
  );

  // The scheduler at scale, once the runs above have ended.
  const scheduled = await dueAtOnce(cluster, DUE);
  console.log(
    `baseline: one-batch-a-minute batch-ms=${Math.round(scheduled.baseline.batchMs)} made-within-s=${Math.round(scheduled.baseline.madeWithinS)}`,
  );
  console.log(
    `watch: due=${scheduled.due} made=${scheduled.made} once=${scheduled.once} made-within-s=${scheduled.madeWithinS.toFixed(1)} runs=${once} calls/min=${(calls / (perOrganization * ORGANIZATIONS)).toFixed(2)} wall/ideal=${(Number(span?.ms ?? 0) / ideal).toFixed(2)} interactive-p95-ms=${Math.round(percentile(times, 0.95))}`,
  );
} finally {
  await cluster.close();
}
