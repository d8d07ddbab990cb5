/**
 * bench:review - a quarter's review pack (issue 60, decision 0038) for the largest customer of the sandbox's large
 * world, with 13 weekly watch runs stored. The standalone sandbox with the large world, PostgreSQL, and one server
 * instance for the set-up and for what only a whole server answers (the customer's timeline). A TAM's weekly watch
 * covers the first BENCH_REVIEW_GROUPS (1) account groups of the organization with the most account groups; its 13
 * runs of the last full quarter are stored as a run stores them: each week's measurements and score made by the
 * health check's own reads and checks (readHealth, measurementsOf, runChecks) from the sandbox's answers for that
 * week's window, so every figure is the sandbox's simulated truth. Then, with the platform at 20 ms latency and its
 * usual limit (240 calls a minute), the quarter's pack is built in a process of its own that does only that
 * (bench/review-build.ts): the `review-pack` report kind's generator, as a worker runs it, on the database and a
 * platform session, the server's young generation kept small as `npm start` keeps it (decision 0029).
 *
 * slides  = the pack's slides (planSlides of the pack's JSON, the same plan its deck and PDF are drawn from).
 * calls   = the platform calls the sandbox counted for the organization while the pack was built (429s included):
 *           goal <= 50, the stored measurements read from the database, not again from the platform.
 * wall-s  = the build's time in that process, from the generator's call to its files: goal <= 30.
 * rss-mb  = that process's peak resident memory (process.resourceUsage().maxRSS, its PDF thread included), as the
 *           other report benches measure theirs: the Node process, tsx, the database pool and the build: goal <= 400.
 * Last line: `review: slides=… calls=… wall-s=… rss-mb=…`; the bench exits 1 when a goal is missed. Needs DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { profileOf } from '@ce/contract';
import { PlatformClient } from '@ce/platform-client';
import { Cluster, exitWithoutPostgres } from '../apps/server/test/cluster.js';
import { ALERT_LOOKBACK_DAYS } from '../apps/server/src/modules/reports/kinds/health/generator.js';
import { runChecks, scoreOf } from '../apps/server/src/modules/reports/kinds/health/checks.js';
import { measurementsOf } from '../apps/server/src/modules/reports/kinds/health/measurements.js';
import { readHealth } from '../apps/server/src/modules/reports/kinds/health/read.js';
import type { ReviewBuildInput, ReviewBuildOutput } from './review-build.js';

const GROUPS = Number(process.env.BENCH_REVIEW_GROUPS ?? 1);
const WEEKS = 13;
const LATENCY_MS = 20;
const LIMIT = 240;
const GOALS = { calls: 50, wallS: 30, rssMb: 400 };
const EMAIL = 'bench@review.test';
const PASSWORD = 'a long bench password';
const DAY_MS = 86_400_000;

exitWithoutPostgres('bench:review');

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The last full quarter before `now`: its first and last day, and the instant after it. */
function lastQuarter(now: number) {
  const date = new Date(now);
  const index = date.getUTCFullYear() * 4 + Math.floor(date.getUTCMonth() / 3) - 1;
  const start = Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1);
  const end = Date.UTC(Math.floor(index / 4), (index % 4) * 3 + 3, 1);
  return { from: day(start), to: day(end - DAY_MS), end };
}

/**
 * Builds the pack in a process of its own (bench/review-build.ts), started as the server is (`npm start` keeps the
 * young generation small, decision 0029): what it measured of itself.
 */
async function buildInChild(input: ReviewBuildInput): Promise<ReviewBuildOutput> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'review-build.ts')], {
    cwd: path.join(import.meta.dirname, '..'),
    env: { ...process.env, NODE_OPTIONS: '--max-semi-space-size=16' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdin.end(JSON.stringify(input));
  const [output, errors, code] = await Promise.all([text(child.stdout), text(child.stderr), exited]);
  if (code !== 0) throw new Error(`the pack's build failed (exit code ${code}): ${errors.slice(-2000)}`);
  return JSON.parse(output) as ReviewBuildOutput;
}

const cluster = new Cluster({ jobLeaseMs: 60_000, sandbox: { SANDBOX_SIZE: 'large' } });
let missed = true;
try {
  await cluster.open();
  // Started as `npm start` starts it (scripts/start.mjs): the young generation kept small (decision 0029).
  const [instance] = await cluster.start([
    { name: 'instance-1', worker: false, env: { NODE_OPTIONS: '--max-semi-space-size=16' } },
  ]);
  if (!instance) throw new Error('no instance');
  await cluster.signedIn([instance], EMAIL, PASSWORD);
  const [user] = await cluster.query<{ id: string }>('select id from users where email = $1', [EMAIL]);
  const sandbox = async <T>(url: string) => (await (await cluster.sandboxCall(url)).json()) as T;

  // The largest customer: the organization whose Org Admin token sees the most account groups.
  const { tokens } = await sandbox<{ tokens: { token: string; kind: string }[] }>('/te/tokens');
  const platform = new PlatformClient({ baseUrl: `${cluster.sandbox.url}/sandbox/te/v7` });
  await cluster.scenario({ latencyMs: 0, rateLimitPerMinute: 1_000_000 });
  const customers = await Promise.all(
    tokens
      .filter((token) => token.kind === 'org-admin')
      .map(async ({ token }) => ({ token, groups: await platform.as({ token }).accountGroups.list() })),
  );
  const largest = customers.sort((a, b) => b.groups.length - a.groups.length)[0];
  const orgId = largest?.groups[0]?.orgId;
  if (!largest || !orgId) throw new Error('the sandbox has no organization');
  const organization = { id: orgId, name: largest.groups[0]?.organizationName ?? orgId };
  const accountGroups = largest.groups.slice(0, GROUPS).map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));

  // A weekly watch over them (made in SQL: nothing runs it during the bench), and its 13 runs of the quarter.
  const [watch] = await cluster.query<{ id: string }>(
    `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel,
       speak_when, status, next_run_at)
     values ($1, $2, $3, $4::jsonb, 'health', '{"cadence":"weekly","weekday":1,"time":"07:00","timeZone":"UTC"}',
       '{"kind":"owner"}',
       '{"anyChange":true,"scoreDrop":null,"newFindingsAtLeast":null,"drift":false,"weeklyQuietLine":false}',
       'active', now() + interval '7 days')
     returning id`,
    [user?.id, organization.id, organization.name, JSON.stringify(accountGroups)],
  );
  const quarter = lastQuarter(Date.now());
  const session = platform.as({ token: largest.token, organizationId: orgId });
  const profile = profileOf('ahc-v7');
  const measuredAt = Date.now();
  // Each run at the end of its week, the last an hour before the quarter ends; two weeks read at a time.
  const weeks = Array.from({ length: WEEKS }, (_, index) => quarter.end - (WEEKS - 1 - index) * 7 * DAY_MS - 3_600_000);
  const stored: { at: number; tests: number }[] = [];
  for (let index = 0; index < weeks.length; index += 2)
    await Promise.all(
      weeks.slice(index, index + 2).map(async (at) => {
        const reading = await readHealth({
          session,
          accountGroups,
          now: new Date(at),
          alertDays: {
            started: Math.max(ALERT_LOOKBACK_DAYS, profile.trendingIssueDays, profile.alertsCountDays),
            cleared: Math.max(profile.alertsActiveDays, profile.alertsCountDays),
          },
          measured: true,
          progress: async () => undefined,
        });
        const measurements = measurementsOf(reading.input);
        if (!measurements) throw new Error('the health check measured nothing');
        const score = scoreOf(runChecks(reading.input, profile)).value;
        const when = new Date(at);
        await cluster.query(
          `insert into watch_runs (watch_id, user_id, kind, organization_id, organization_name, account_groups, due_at,
             trigger, status, created_at, started_at, finished_at, score, measurements, delivery_status)
           values ($1, $2, 'health', $3, $4, $5::jsonb, $6, 'schedule', 'done', $6, $6, $6, $7, $8::jsonb, 'sent')`,
          [
            watch?.id,
            user?.id,
            organization.id,
            organization.name,
            JSON.stringify(accountGroups),
            when,
            score,
            JSON.stringify(measurements),
          ],
        );
        stored.push({ at, tests: measurements.tests.ok ? measurements.tests.value.length : 0 });
      }),
    );
  const setupS = (Date.now() - measuredAt) / 1000;

  // The platform as the pack meets it (a new limit opens new windows); what it answered so far, to count from.
  await cluster.scenario({ latencyMs: LATENCY_MS, rateLimitPerMinute: LIMIT });
  const countOf = async () => {
    const stats = await sandbox<{ organizations: { orgId: string; accepted: number; refused429: number }[] }>(
      '/te/stats',
    );
    const counts = stats.organizations.find((entry) => entry.orgId === orgId);
    return (counts?.accepted ?? 0) + (counts?.refused429 ?? 0);
  };
  const before = await countOf();
  const built = await buildInChild({
    databaseUrl: cluster.databaseUrl,
    platformUrl: `${cluster.sandbox.url}/sandbox/te/v7`,
    token: largest.token,
    serverUrl: instance.url,
    email: EMAIL,
    password: PASSWORD,
    organization,
    accountGroups,
    userId: user?.id ?? '',
    period: { kind: 'quarter', from: quarter.from, to: quarter.to },
  });
  const calls = (await countOf()) - before;
  const { slides, wallS, rssMb } = built;

  console.log(
    `review: ${organization.name}, ${accountGroups.length} account group(s); ${WEEKS} weekly runs of ${quarter.from} to ${quarter.to} stored (${stored[0]?.tests ?? 0} tests measured each week) in ${setupS.toFixed(0)} s`,
  );
  console.log(
    `  the pack: ${built.files.map((file) => `${file.filename} ${file.kb} KB`).join(', ')}; the platform at ${LATENCY_MS} ms latency, limit ${LIMIT} a minute; the building process's peak memory ${built.rssBeforeMb} MB before the build`,
  );
  const failures = [
    calls > GOALS.calls && `calls ${calls} > ${GOALS.calls}`,
    wallS > GOALS.wallS && `wall ${wallS.toFixed(1)} s > ${GOALS.wallS} s`,
    rssMb > GOALS.rssMb && `rss ${rssMb} MB > ${GOALS.rssMb} MB`,
  ].filter(Boolean);
  if (failures.length > 0) console.log(`  goals missed: ${failures.join('; ')}`);
  missed = failures.length > 0;
  console.log(`review: slides=${slides} calls=${calls} wall-s=${wallS.toFixed(1)} rss-mb=${rssMb}`);
} finally {
  await cluster.close();
}
process.exit(missed ? 1 : 0);
