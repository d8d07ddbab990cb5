/**
 * bench:portfolio - "My customers" as history grows (issue 56). One instance on PostgreSQL; three TAMs each watch
 * CUSTOMERS organizations (200), whose histories of finished runs are made in SQL: 1, 100 and 365 daily runs per
 * customer (each with the kept findings of a health check, its backups and what changed). The three load their
 * portfolios in turn, REQUESTS rounds of one request each (the first in a round taking turns), so a garbage collection,
 * a checkpoint or a neighbour's burst falls on all three sizes alike; the 95th percentile of each TAM's answer time is
 * printed per size.
 *
 * Last line: `portfolio: customers=200 p95-ms-1=… p95-ms-100=… p95-ms-365=… ratio=…`, ratio = the p95 at 365 runs over
 * the p95 at 1 (goal: <= 1.50, flat in history). Needs DATABASE_URL.
 */
import { HEALTH_CHECK_IDS, type PortfolioEntry } from '@ce/contract';
import { Cluster, exitWithoutPostgres } from '../apps/server/test/cluster.js';

const CUSTOMERS = Number(process.env.BENCH_PORTFOLIO_CUSTOMERS ?? 200);
const SIZES = [1, 100, 365];
const REQUESTS = Number(process.env.BENCH_PORTFOLIO_REQUESTS ?? 200);
// Enough samples that the 95th percentile is ten answers, not three: a garbage collection alone moved 60 samples'.
const WARM_UP = 20;
const PASSWORD = 'a long bench password';

exitWithoutPostgres('bench:portfolio');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;

// What a health check's run keeps: every check with a few items, as a run of the large world keeps them.
const findings = HEALTH_CHECK_IDS.map((id, index) => ({
  id,
  title: `Check ${id}`,
  status: index % 3 === 0 ? 'warn' : 'pass',
  weight: 1,
  items: Array.from({ length: index % 3 === 0 ? 4 : 0 }, (_, item) => ({
    type: 'test',
    id: `${id}-${item}`,
    name: `Test ${item} of ${id}`,
    detail: 'Interval 60 s; timeout 5 s',
  })),
}));
const changes = {
  checks: [{ title: `Check ${HEALTH_CHECK_IDS[0]}`, before: 'pass', after: 'warn' }],
  drift: [],
  openFindings: 12,
  waived: [],
  othersWaivers: [],
};

const cluster = new Cluster({ jobLeaseMs: 60_000 });
try {
  await cluster.open();
  const [instance] = await cluster.start([{ name: 'instance-1', worker: false }]);
  if (!instance) throw new Error('no instance');
  const books = [];
  for (const size of SIZES) {
    const email = `bench-${size}@portfolio.test`;
    const browser = await cluster.signedIn([instance], email, PASSWORD);
    const [user] = await cluster.query<{ id: string }>('select id from users where email = $1', [email]);
    // One watch per customer, active (its token gone: nothing runs), its next run tomorrow.
    await cluster.query(
      `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel,
         speak_when, status, next_run_at)
       select $1, 'bench-org-' || $3::int || '-' || n, 'Customer ' || n, jsonb_build_array(jsonb_build_object('aid',
         n::text, 'accountGroupName', 'Group ' || n)), 'both',
         '{"cadence":"daily","weekday":null,"time":"03:00","timeZone":"UTC"}', '{"kind":"owner"}',
         '{"anyChange":true,"scoreDrop":null,"newFindingsAtLeast":null,"drift":true,"weeklyQuietLine":false}',
         'active', now() + interval '1 day'
       from generate_series(1, $2::int) n`,
      [user?.id, CUSTOMERS, size],
    );
    // The runs a daily watch made over `size` days, the latest an hour ago.
    await cluster.query(
      `insert into watch_runs (watch_id, user_id, kind, organization_id, organization_name, account_groups, due_at,
         trigger, status, created_at, started_at, finished_at, score, findings, backups, changes, delivery_status)
       select w.id, w.user_id, 'both', w.organization_id, w.organization_name, w.account_groups, day, 'schedule',
         'done', day, day, day + interval '4 minutes', 60 + (d % 30), $2::jsonb,
         jsonb_build_array(jsonb_build_object('aid', w.organization_id, 'backupId', gen_random_uuid())), $3::jsonb,
         'sent'
       from watches w, generate_series(0, $4::int - 1) d,
         lateral (select date_trunc('minute', now()) - interval '1 hour' - d * interval '1 day' as day) due
       where w.user_id = $1`,
      [user?.id, JSON.stringify(findings), JSON.stringify(changes), size],
    );
    books.push({ size, browser, times: [] as number[] });
  }
  await cluster.query('vacuum analyze watch_runs');
  // The inserts' write-ahead log flushed now, not by a checkpoint in the middle of the reads measured.
  await cluster.query('checkpoint').catch(() => undefined);

  for (let round = 0; round < WARM_UP + REQUESTS; round++) {
    for (let turn = 0; turn < books.length; turn++) {
      const book = books[(round + turn) % books.length];
      if (!book) continue;
      const started = performance.now();
      const answer = await book.browser.call<{ customers: PortfolioEntry[] }>('GET', '/api/watch-portfolio');
      const ms = performance.now() - started;
      if (answer.status !== 200 || answer.body.customers.length !== CUSTOMERS)
        throw new Error(`the portfolio answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 200)}`);
      const trend = answer.body.customers[0]?.trend.length ?? 0;
      if (trend !== Math.min(book.size, 4))
        throw new Error(`a trend of ${trend} runs at ${book.size} runs per customer`);
      if (round >= WARM_UP) book.times.push(ms);
    }
  }
  const figures = new Map<number, number>();
  for (const { size, times } of books) {
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 0.95);
    figures.set(size, p95);
    console.log(
      `portfolio: customers=${CUSTOMERS} runs-per-customer=${size} p50-ms=${Math.round(percentile(times, 0.5))} p95-ms=${Math.round(p95)}`,
    );
  }
  const first = figures.get(SIZES[0] ?? 1) ?? 0;
  const last = figures.get(SIZES.at(-1) ?? 365) ?? 0;
  console.log(
    `portfolio: customers=${CUSTOMERS} ${SIZES.map((size) => `p95-ms-${size}=${Math.round(figures.get(size) ?? 0)}`).join(' ')} ratio=${(last / first).toFixed(2)}`,
  );
} finally {
  await cluster.close();
}
