import { expect } from 'vitest';
import type { PlatformSession } from '../src/index.js';

/** The document's operations for what the platform measured: results, alerts, events, agents' health, units, versions. */
export const MEASURED_OPERATIONS = [
  'GET /test-results/{testId}/network',
  'GET /test-results/{testId}/http-server',
  'GET /test-results/{testId}/page-load',
  'GET /test-results/{testId}/dns-server',
  'GET /test-results/{testId}/dns-trace',
  'GET /alerts/{alertId}',
  'GET /events',
  'GET /events/{id}',
  'GET /agents/notification-rules',
  'GET /agents/notification-rules/{notificationRuleId}',
  'GET /agents/local-problems',
  'GET /usage/units/tests',
  'GET /usage/units/enterprise-agents',
  'GET /tests/{testId}/history',
];

/**
 * Reads each measured operation in the measured cases' account group, over the ranges and pages the document
 * describes; `readOnly` and `unpriced` sessions meet the refusals (no View Billing; not on usage pricing).
 */
export async function exerciseMeasured(
  admin: PlatformSession,
  refused: { readOnly: PlatformSession; unpriced: PlatformSession },
): Promise<void> {
  const group = (await admin.accountGroups.list()).find(
    (candidate) => candidate.accountGroupName === 'Acme - EMEA Branches',
  );
  const aid = group?.aid ?? '';
  const tests = await admin.tests.list(aid);
  const byName = (name: string) => tests.find((test) => test.testName === name);
  // One of each type the sandbox measures; "Checkout web" (every minute) over a day is several pages.
  const ofType = (type: string) => tests.find((test) => test.type === type && test.enabled !== false);
  const checkout = byName('Checkout web');
  let rounds = 0;
  for await (const _result of admin.testResults.stream('http-server', checkout?.testId ?? '', {
    aid,
    range: { window: '1d' },
  }))
    rounds += 1;
  expect(rounds).toBeGreaterThan(1000);
  for (const type of ['agent-to-server', 'page-load', 'dns-server', 'dns-trace'] as const) {
    const test = ofType(type);
    for await (const _result of admin.testResults.stream(type, test?.testId ?? '', { aid, range: { window: '1h' } }))
      break;
  }
  const latest = [];
  for await (const result of admin.testResults.stream('http-server', byName('Payroll HTTP')?.testId ?? '', { aid }))
    latest.push(result);
  expect(latest.length).toBeGreaterThan(0);

  const alerts = [];
  for await (const alert of admin.alerts.list({ aid, range: { window: '7d' }, max: 100 })) alerts.push(alert);
  const detail = await admin.alerts.get(alerts[0]?.id ?? '', aid);
  expect(detail.meta?.version).toBeGreaterThan(0);
  expect(detail.details?.length).toBeGreaterThan(0);

  const events = [];
  for await (const event of admin.events.list({ aid, range: { window: '7d' } })) events.push(event);
  for (const event of events) await admin.events.get(event.id, aid);
  expect(events.map((event) => event.type).sort()).toEqual(['agent-local', 'network', 'target']);

  // The measured group has no agent-offline rule; another's default rule names the agents it is on.
  expect(await admin.agents.notificationRules(aid)).toEqual([]);
  const other = (await admin.accountGroups.list()).find(
    (candidate) => candidate.accountGroupName === 'Acme - Data Centers',
  );
  const [offlineRule] = await admin.agents.notificationRules(other?.aid);
  const ruleDetail = await admin.agents.notificationRule(offlineRule?.ruleId ?? '', other?.aid);
  expect(ruleDetail.agents?.length).toBeGreaterThan(0);
  expect((await admin.agents.localProblems({ aid, range: { window: '7d' } })).length).toBe(1);

  for await (const _units of admin.usage.testUnits({ aid })) break;
  for await (const _units of admin.usage.enterpriseAgentUnits()) break;
  await expect(refused.readOnly.usage.get({ aid })).rejects.toMatchObject({ status: 403 });
  await expect(refused.unpriced.usage.testUnits()[Symbol.asyncIterator]().next()).rejects.toMatchObject({
    status: 403,
  });

  const payroll = byName('Payroll HTTP');
  const history = await admin.tests.history(payroll?.testId ?? '', { aid });
  await admin.tests.get('http-server', payroll?.testId ?? '', { aid, versionId: history[0]?.versionId });
}
