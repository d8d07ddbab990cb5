/**
 * bench:watch's scheduler part (issue 56): DUE watches due in the same minute on the instances of a cluster. The
 * bench's watches are copied (in SQL) into that many, spread over their organizations, all due at the next minute of
 * the database's clock; every instance's scheduler makes their runs. Once every run is made (or two minutes passed),
 * the copies are paused and their runs cancelled: this part measures the making, not the runs.
 *
 * due            = the watches due at that minute.
 * made           = the runs made for that minute.
 * once           = the watches with exactly one run for it.
 * made-within-s  = from the due minute to the moment every run existed (observed every 250 ms, on the database's clock).
 * baseline       = the scheduler before issue 56 (one batch of 100 watches a minute, row by row, one instance): one
 *   batch timed in a transaction rolled back, and the last run's delay that pace gives (a batch a minute).
 */
import pg from 'pg';
import type { Cluster } from '../apps/server/test/cluster.js';

const OLD_BATCH = 100;
const POLL_MS = 250;
const GIVE_UP_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DueFigures {
  due: number;
  made: number;
  once: number;
  madeWithinS: number;
  baseline: { batchMs: number; madeWithinS: number };
}

export async function dueAtOnce(cluster: Cluster, due: number): Promise<DueFigures> {
  const originals = (await cluster.query<{ id: string }>('select id from watches')).map((row) => row.id);
  if (originals.length === 0) throw new Error('no watch to copy');
  // The copies: every watch but the bench's own.
  const copies = 'not (w.id = any($1::uuid[]))';
  // Each original copied as often as it takes to reach `due` (the first ones once more), due in the future for now.
  const per = Math.floor(due / originals.length);
  const extra = due - per * originals.length;
  await cluster.query(
    `insert into watches (user_id, organization_id, organization_name, account_groups, runs, schedule, channel,
       speak_when, status, token_id, token_last4, token_stored_at, token_stored_by,
       consent_contact_name, consent_contact_email, token_expires_at, next_run_at)
     select w.user_id, w.organization_id, w.organization_name, w.account_groups, w.runs, w.schedule, w.channel,
       w.speak_when, 'active', w.token_id, w.token_last4, w.token_stored_at, w.token_stored_by,
       w.consent_contact_name, w.consent_contact_email, now() + interval '30 days', now() + interval '1 day'
     from (select *, row_number() over (order by created_at) as n from watches) w,
       generate_series(1, $1::int + case when w.n <= $2 then 1 else 0 end)`,
    [per, extra],
  );
  // The next minute of the database's clock at least 20 s away: the baseline is timed before it.
  const [minute] = await cluster.query<{ at: Date }>(
    "select date_trunc('minute', now() + interval '20 seconds') + interval '1 minute' as at",
  );
  const at = minute?.at;
  if (!at) throw new Error('no due minute');
  await cluster.query(`update watches w set next_run_at = $2 where ${copies}`, [originals, at]);
  const baselineMs = await oldBatch(cluster.databaseUrl, at);

  let shown = '';
  const progress = (text: string) => {
    if (text !== shown) process.stderr.write(`\rwatch-due: ${text}`);
    shown = text;
  };
  let madeAt: number | null = null;
  for (;;) {
    const [state] = await cluster.query<{ made: number; late_ms: number }>(
      `select count(*)::int as made, extract(epoch from now() - $1::timestamptz) * 1000 as late_ms
       from watch_runs where due_at = $1`,
      [at],
    );
    const lateMs = Number(state?.late_ms ?? 0);
    progress(`${Math.round(lateMs / 1000)} s from the due minute, ${state?.made ?? 0} of ${due} runs made   `);
    if ((state?.made ?? 0) >= due) {
      madeAt = lateMs;
      break;
    }
    if (lateMs > GIVE_UP_MS) break;
    await sleep(POLL_MS);
  }
  process.stderr.write('\n');
  const [counted] = await cluster.query<{ made: number; once: number }>(
    `select count(*)::int as made, count(*) filter (where runs = 1)::int as once
     from (select w.id, count(r.id) as runs from watches w left join watch_runs r on r.watch_id = w.id and r.due_at = $1
           where not (w.id = any($2::uuid[])) group by w.id) per`,
    [at, originals],
  );
  const [made] = await cluster.query<{ n: number }>('select count(*)::int as n from watch_runs where due_at = $1', [
    at,
  ]);
  await cancelCopies(cluster, originals);
  return {
    due,
    made: made?.n ?? 0,
    once: counted?.once ?? 0,
    madeWithinS: madeAt === null ? Number.POSITIVE_INFINITY : Math.max(0, madeAt) / 1000,
    baseline: {
      batchMs: baselineMs,
      madeWithinS: (Math.ceil(due / OLD_BATCH) - 1) * 60 + baselineMs / 1000,
    },
  };
}

/** The scheduler before issue 56, once: 100 due watches taken and their runs inserted row by row, rolled back. */
async function oldBatch(databaseUrl: string, at: Date): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const started = performance.now();
    const { rows } = await client.query<{ id: string }>(
      `select * from watches where status = 'active' and token_id is not null and next_run_at <= $1
       order by next_run_at limit ${OLD_BATCH} for update skip locked`,
      [at],
    );
    for (const watch of rows) {
      await client.query(
        `insert into watch_runs (watch_id, user_id, kind, organization_id, organization_name, account_groups, due_at,
           trigger)
         select id, user_id, runs, organization_id, organization_name, account_groups, next_run_at, 'schedule'
         from watches where id = $1 on conflict do nothing returning *`,
        [watch.id],
      );
      await client.query(
        "update watches set next_run_at = next_run_at + interval '1 day', last_run_at = next_run_at where id = $1",
        [watch.id],
      );
    }
    return performance.now() - started;
  } finally {
    await client.query('rollback');
    await client.end();
  }
}

/** The copies stop: paused, their runs and the parts those started ended (their workers' next write is refused). */
async function cancelCopies(cluster: Cluster, originals: string[]): Promise<void> {
  await cluster.query("update watches w set status = 'paused', next_run_at = null where not (w.id = any($1::uuid[]))", [
    originals,
  ]);
  const copies = '(select r.id from watch_runs r where not (r.watch_id = any($1::uuid[])))';
  const end = (table: string, where: string) =>
    cluster.query(
      `update ${table} set status = 'failed', error = 'bench: cancelled', finished_at = now(), lease_until = null,
         lease_generation = lease_generation + 1
       where status in ('queued', 'running') and ${where}`,
      [originals],
    );
  await end('watch_runs', `id in ${copies}`);
  await end('report_requests', `watch_run_id in ${copies}`);
  await end('backups', `watch_run_id in ${copies}`);
}
