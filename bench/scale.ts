/**
 * bench:scale - two worker processes on PostgreSQL (and one web instance taking the requests) generating
 * account health checks for one organization of the sandbox's large world, the standalone sandbox
 * answering 20% of calls with 500. Needs DATABASE_URL (a PostgreSQL server where it may create and drop a
 * database).
 *
 * rate/limit = the calls the sandbox accepted for the organization per minute, over the limit: from the
 *   start of the first rate-limit window to the start of the last (the last one is the tail, when the work
 *   runs out), gaps between windows included.
 * 429-share  = calls answered 429 over all calls the sandbox judged for the organization.
 * lost       = health checks requested that did not end done.
 * duplicated = Webex messages the sandbox received beyond the deliveries the product recorded (each message
 *   of a report is recorded once under its own key, so any extra one is a message sent twice).
 * Last line: `scale: instances=2 rate/limit=R 429-share=S lost=L duplicated=D`.
 */
import { Cluster, exitWithoutPostgres } from '../apps/server/test/cluster.js';

const LIMIT = Number(process.env.BENCH_SCALE_LIMIT ?? 900);
const REPORTS = Number(process.env.BENCH_SCALE_REPORTS ?? 4);
const EMAIL = 'bench@scale.test';
const PASSWORD = 'a long bench password';

exitWithoutPostgres('bench:scale');

const cluster = new Cluster({
  jobLeaseMs: 60_000,
  sandbox: { SANDBOX_SIZE: 'large', SANDBOX_RATE_LIMIT: String(LIMIT) },
});
try {
  await cluster.open();
  const sandbox = (url: string, init?: RequestInit) => cluster.sandboxCall(url, init);
  const [web] = await cluster.start([
    { name: 'web-1', worker: false },
    { name: 'worker-1', worker: true },
    { name: 'worker-2', worker: true },
  ]);
  if (!web) throw new Error('the web instance did not start');
  const browser = await cluster.signedIn([web], EMAIL, PASSWORD);
  const admin = await cluster.orgAdmin();
  const { accountGroups } = (
    await browser.call<{
      accountGroups: { aid: string; accountGroupName: string; organizationId: string; organizationName: string }[];
    }>('POST', '/api/account-groups', { token: admin.token })
  ).body;
  const organization = { id: admin.organizationId, name: accountGroups[0]?.organizationName ?? '' };
  const groups = accountGroups
    .filter((group) => group.organizationId === admin.organizationId)
    .map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));

  // The storm of 500s starts with the work; the counters start from zero.
  await cluster.scenario({ errorRate: 0.2, errorStatus: 500, latencyMs: 20 });
  const started = Date.now();
  const ids: string[] = [];
  for (let index = 0; index < REPORTS; index++) {
    const created = await browser.call<{ id: string }>('POST', '/api/reports', {
      kind: 'ahc-v7',
      token: admin.token,
      organization,
      accountGroups: groups,
      options: {},
    });
    if (created.status !== 202) throw new Error(`the report was refused: ${JSON.stringify(created.body)}`);
    ids.push(created.body.id);
  }
  const statuses = new Map<string, string>();
  while (statuses.size < ids.length) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const id of ids) {
      if (statuses.has(id)) continue;
      const { status } = (await browser.call<{ status: string }>('GET', `/api/reports/${id}`)).body;
      if (status === 'done' || status === 'failed') statuses.set(id, status);
    }
    process.stderr.write(
      `\r${statuses.size}/${ids.length} health checks finished after ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
  process.stderr.write('\n');

  const stats = (await (await sandbox('/te/stats')).json()) as {
    windows: { orgId: string; startedAt: number; count: number }[];
    organizations: { orgId: string; accepted: number; refused429: number }[];
  };
  const windows = stats.windows.filter((window) => window.orgId === admin.organizationId);
  const first = windows[0];
  const last = windows.at(-1);
  if (!first || !last || windows.length < 2)
    throw new Error('the run spanned fewer than two windows: raise BENCH_SCALE_REPORTS');
  const accepted = windows.slice(0, -1).reduce((sum, window) => sum + window.count, 0);
  const minutes = (last.startedAt - first.startedAt) / 60_000;
  const rate = accepted / minutes / LIMIT;
  const counts = stats.organizations.find((entry) => entry.orgId === admin.organizationId);
  const judged = (counts?.accepted ?? 0) + (counts?.refused429 ?? 0);
  const share = judged === 0 ? 0 : (counts?.refused429 ?? 0) / judged;
  const lost = ids.filter((id) => statuses.get(id) !== 'done').length;
  const { items } = (await (await sandbox(`/webex/messages?toPersonEmail=${encodeURIComponent(EMAIL)}`)).json()) as {
    items: unknown[];
  };
  const messages = items.length;
  const [recorded] = await cluster.query<{ count: number }>(
    "select count(*)::int as count from webex_deliveries where status = 'sent'",
  );
  const duplicated = messages - (recorded?.count ?? 0);
  console.log(
    `windows=${windows.length} accepted=${counts?.accepted ?? 0} refused429=${counts?.refused429 ?? 0} limit=${LIMIT}/min reports=${REPORTS} messages=${messages}`,
  );
  console.log(
    `scale: instances=2 rate/limit=${rate.toFixed(2)} 429-share=${share.toFixed(3)} lost=${lost} duplicated=${duplicated}`,
  );
} finally {
  await cluster.close();
}
