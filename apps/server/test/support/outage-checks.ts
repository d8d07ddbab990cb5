import { expect, vi } from 'vitest';
import type { Cluster, ClusterProcess, RoundRobinClient } from '../cluster.js';

// What the cluster's fault suites check once the fault has passed: nothing failed by it, the customer's account holds
// each write once under the id recorded, and what Webex received is what the toolkit recorded as sent.

export interface Customer {
  token: string;
  organization: { id: string; name: string };
  groups: { aid: string; accountGroupName: string }[];
}

/**
 * The fault suites' deployment: two instances with workers (a run now whenever asked), the platform as `scenario`
 * says, a TAM signed in through the balancer, and the sandbox's Org Admin customer with its account groups.
 */
export async function openOutageCluster(
  cluster: Cluster,
  email: string,
  password: string,
  scenario: Parameters<Cluster['scenario']>[0],
): Promise<{ nodes: ClusterProcess[]; browser: RoundRobinClient; customer: Customer }> {
  await cluster.open();
  await cluster.scenario(scenario);
  const env = { WATCH_RUN_NOW_EVERY_MINUTES: '0' };
  const nodes = await cluster.start([
    { name: 'node-1', worker: true, env },
    { name: 'node-2', worker: true, env },
  ]);
  const browser = await cluster.signedIn(nodes, email, password);
  const { token, organizationId } = await cluster.orgAdmin();
  const groups = (
    await browser.call<{ accountGroups: { aid: string; accountGroupName: string; organizationName: string }[] }>(
      'POST',
      '/api/account-groups',
      { token },
    )
  ).body.accountGroups;
  const customer = {
    token,
    organization: { id: organizationId, name: groups[0]?.organizationName ?? '' },
    groups: groups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
  };
  return { nodes, browser, customer };
}

/** No job, item or message of the cluster was failed (or left waiting) by the fault. */
export async function nothingFailed(cluster: Cluster): Promise<void> {
  const rows = await cluster.query<{ kind: string; status: string; error: string | null }>(
    `select 'report' as kind, status, error from report_requests
     union all select 'change set', status, error from change_sets
     union all select 'backup', status, error from backups
     union all select 'watch run', status, error from watch_runs
     union all select 'change item', status, error from change_set_items
     union all select 'webex delivery', status, error from webex_deliveries`,
  );
  expect(rows.length).toBeGreaterThan(0);
  const notDone = rows.filter((row) => !['done', 'sent', 'skipped'].includes(row.status));
  expect(notDone).toEqual([]);
}

/** The bulk run's tests are in the account group once each, under the ids the run recorded, all of them done. */
export async function sameAsPlatform(
  cluster: Cluster,
  browser: RoundRobinClient,
  customer: Customer,
  runId: string,
  aid: string,
  names: string[],
): Promise<void> {
  const run = (
    await browser.call<{
      totals: Record<string, number>;
      items: { aid: string; subject: string; resultId: string | null }[];
    }>('GET', `/api/bulk/runs/${runId}`)
  ).body;
  expect(run.totals).toMatchObject({ total: names.length, done: names.length, failed: 0 });
  // The platform's rate window may still be full from the run: asked until it answers.
  const held = await vi.waitFor(
    async () => {
      const answer = await cluster.sandboxCall(`/te/v7/tests?aid=${aid}`, {
        headers: { authorization: `Bearer ${customer.token}` },
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { tests: { testId: string; testName: string }[] }).tests;
    },
    { timeout: 20_000, interval: 300 },
  );
  const ours = held.filter((test) => names.includes(test.testName));
  expect(ours.map((test) => test.testName).sort()).toEqual([...names].sort());
  expect(run.items.map((item) => [item.subject, item.resultId]).sort()).toEqual(
    ours.map((test) => [test.testName, test.testId]).sort(),
  );
}

/**
 * The messages Webex holds for `email` are the deliveries the toolkit recorded as sent to it, one per key, none
 * waiting; answers their keys.
 */
export async function webexMatchesDeliveries(cluster: Cluster, email: string): Promise<string[]> {
  const { items: inbox } = (await (
    await cluster.sandboxCall(`/webex/messages?toPersonEmail=${encodeURIComponent(email)}`)
  ).json()) as { items: { id: string }[] };
  const recorded = await cluster.query<{ key: string; status: string; messageId: string | null }>(
    'select key, status, message_id as "messageId" from webex_deliveries where to_email = $1',
    [email],
  );
  expect(recorded.filter((row) => row.status !== 'sent')).toEqual([]);
  expect(inbox.map((message) => message.id).sort()).toEqual(recorded.map((row) => row.messageId).sort());
  return recorded.map((row) => row.key);
}
