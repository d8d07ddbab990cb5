import type { Agent, AlertRule, Incident, Test } from '../model.js';
import { DAY } from '../world-tables.js';
import type { World } from '../world.js';
import { billingPeriod, derivedAlerts, unitsOfTests, uuidOf } from './measurements.js';

/** The account group the measured cases are planted in (the first organization's; no other planted case is there). */
export const MEASURED_GROUP = 'Acme - EMEA Branches';

/** What the organizations' plans include against what they project: the first is on course for 112% of it. */
export const PROJECTED_SHARE_OF_QUOTA = { first: 1.12, others: 0.6, large: 0.8 } as const;

/**
 * Measured cases, on both sides of the thresholds the measured checks use, in `MEASURED_GROUP` (added after the
 * seeded data, without drawing from the seed, so nothing else moves). Names are the cases':
 * - "Payroll HTTP" (HTTP, 5 cloud agents, every 5 minutes) fails since Tuesday 09:00 UTC from 3 of its 5 agents;
 *   its rule "Payroll HTTP availability" (3 sources) triggered once then and is still active;
 * - "Checkout web" (HTTP, every minute) fails one round in every 1,512 s for the last 8 days: its rule
 *   "Checkout errors" fires 400 times a week (trigger, clear, trigger...);
 * - "Branch DNS" fails from all its agents since it was made (a test that always fails);
 * - "Warehouse network" never succeeds from its third agent (an agent-test pair that never does), and two hours of
 *   a provider outage 3 days ago touched its other two (an event of type network);
 * - "Kiosk portal" runs only on "emea-branches-ea-offline-9d", offline for 9 days: it made no round since;
 * - "Intranet home" is healthy; its rule "Intranet errors" (2 sources) never fired, though a 45-minute local
 *   problem on "emea-branches-ea-outdated" (online, agent version outdated) 2 days ago failed that agent's rounds;
 * - "Retired kiosk checks" still names a deleted test; the group has no agent-offline notification rule;
 * - units: the first organization is on usage pricing, projected at 112% of its included cloud units; the second is
 *   not on usage pricing (its `/usage/units/*` answer 403); the large world's projects 80%.
 * The other side of three thresholds, planted after the cases above (their ids and alerts stay as they were):
 * - "Orders API" (HTTP, every minute, one agent) fails one round in every 20,160 s: its rule "Orders API errors"
 *   fires 30 times a week, more than 21 but 0.3 per 100 rounds: not noisy, beside "Checkout errors";
 * - in "Acme - Data Centers" the first enterprise agent was taken out of the default agent-offline rule: nobody
 *   hears of it going offline, while the rule covers the group's other agents;
 * - endpoint agents: the first organization uses 30% of its 500 licences (flagged); the second 75% of its own.
 */
export function plantMeasuredCases(world: World, now: number, nextId: () => string): void {
  const group = world.accountGroups.find((candidate) => candidate.accountGroupName === MEASURED_GROUP);
  const org = world.organizations.find((candidate) => candidate.orgId === group?.orgId);
  if (!group || !org) return;
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const author = world.users.find((user) => user.orgId === org.orgId)?.email ?? 'admin@example.com';
  const cloud = world.agents.filter((agent) => agent.agentType === 'cloud').map((agent) => agent.agentId);
  const made = now - 60 * DAY;

  const enterprise = (name: string, fields: Partial<Agent>): Agent => {
    const agent: Agent = {
      agentId: nextId(),
      agentName: name,
      agentType: 'enterprise',
      location: 'Dublin, Ireland',
      countryId: 'IE',
      enabled: true,
      ipAddresses: [`10.77.0.${world.agents.length % 250}`],
      publicIpAddresses: [`198.51.77.${world.agents.length % 250}`],
      network: `${org.name} (AS 65000)`,
      hostname: `${name}.${org.slug}.example.com`,
      lastSeen: iso(now - 60_000),
      agentState: 'online',
      createdDate: iso(now - 400 * DAY),
      aids: [group.aid],
      ...fields,
    };
    world.agents.push(agent);
    return agent;
  };
  const offline = enterprise('emea-branches-ea-offline-9d', {
    agentState: 'offline',
    lastSeen: iso(now - 9 * DAY),
  });
  const outdated = enterprise('emea-branches-ea-outdated', {
    errorDetails: [{ code: 'agent-version-outdated', description: 'The agent version is outdated' }],
  });

  const test = (testName: string, type: Test['type'], interval: number, agentIds: string[], config: Test['config']) => {
    const created: Test = {
      testId: nextId(),
      aid: group.aid,
      type,
      testName,
      interval,
      enabled: true,
      alertsEnabled: true,
      description: `Measured case: ${testName}`,
      createdBy: author,
      createdDate: iso(made),
      modifiedBy: author,
      modifiedDate: iso(made),
      agentIds,
      alertRuleIds: [],
      config,
    };
    world.tests.push(created);
    return created;
  };
  const http = (host: string) => ({ url: `https://${host}/`, protocol: 'tcp', httpTimeLimit: 5 });
  const payroll = test('Payroll HTTP', 'http-server', 300, cloud.slice(0, 5), http('payroll.acme.example.com'));
  const checkout = test('Checkout web', 'http-server', 60, cloud.slice(5, 7), http('shop.acme.example.com'));
  const dns = test('Branch DNS', 'dns-server', 300, cloud.slice(7, 9), {
    domain: 'branch.acme.example.com A',
    dnsServers: [{ serverId: '1447', serverName: 'ns1.example.net' }],
  });
  const warehouse = test('Warehouse network', 'agent-to-server', 120, cloud.slice(9, 12), {
    server: 'wms.acme.example.com',
    port: 443,
    protocol: 'tcp',
  });
  test('Kiosk portal', 'http-server', 600, [offline.agentId], http('kiosk.acme.example.com'));
  const intranet = test(
    'Intranet home',
    'http-server',
    300,
    [...cloud.slice(12, 14), outdated.agentId],
    http('intranet.acme.example.com'),
  );

  const rule = (ruleName: string, minimumSources: number, tests: Test[]) => {
    const created: AlertRule = {
      ruleId: nextId(),
      aid: group.aid,
      ruleName,
      expression: '((errorType != "None"))',
      notifyOnClear: true,
      isDefault: false,
      alertType: 'http-server',
      alertGroupType: 'cloud-enterprise',
      minimumSources,
      roundsViolatingMode: 'exact',
      roundsViolatingOutOf: 1,
      roundsViolatingRequired: 1,
      severity: 'major',
      description: '',
      testIds: tests.map((item) => item.testId),
      notificationEmails: [`noc@${org.slug}.example.com`],
    };
    world.alertRules.push(created);
    for (const item of tests) item.alertRuleIds.push(created.ruleId);
  };
  rule('Payroll HTTP availability', 3, [payroll]);
  rule('Checkout errors', 1, [checkout]);
  rule('Intranet errors', 2, [intranet]);
  // A rule left behind: it still names "Kiosk portal" and a test deleted since (an id no test has any more).
  const kiosk = world.tests.find((item) => item.aid === group.aid && item.testName === 'Kiosk portal');
  const retired: AlertRule = {
    ...(world.alertRules.at(-1) as AlertRule),
    ruleId: nextId(),
    ruleName: 'Retired kiosk checks',
    testIds: [...(kiosk ? [kiosk.testId] : []), nextId()],
  };
  world.alertRules.push(retired);
  kiosk?.alertRuleIds.push(retired.ruleId);
  // The group deleted its default agent-offline notification rule: nobody hears that its agent went offline.
  group.noAgentOfflineRule = true;

  // Tuesday 09:00 UTC of this week (of the last one when this week's is still to come).
  const today = Math.floor(now / DAY) * DAY;
  let tuesday = today - ((new Date(today).getUTCDay() - 2 + 7) % 7) * DAY + 9 * 3_600_000;
  if (tuesday > now) tuesday -= 7 * DAY;
  const incident = (fields: Omit<Incident, 'id'>) =>
    world.incidents.push({ id: uuidOf(`incident|${group.aid}|${world.incidents.length}`), ...fields });
  incident({
    testId: payroll.testId,
    agentIds: cloud.slice(0, 3),
    from: tuesday,
    pattern: 'down',
    cause: 'Connection timed out',
    event: { type: 'target', severity: 'medium', typeName: 'Target' },
  });
  incident({ testId: checkout.testId, from: now - 8 * DAY, pattern: 'flap', periodSeconds: 1512, cause: 'HTTP 503' });
  incident({ testId: dns.testId, from: made, pattern: 'down', cause: 'Timeout' });
  incident({
    testId: warehouse.testId,
    agentIds: cloud.slice(11, 12),
    from: made,
    pattern: 'down',
    cause: '100% packet loss',
  });
  const outage = today - 3 * DAY + 10 * 3_600_000;
  incident({
    testId: warehouse.testId,
    agentIds: cloud.slice(9, 11),
    from: outage,
    to: outage + 2 * 3_600_000,
    pattern: 'down',
    cause: 'Network loss at the provider',
    event: { type: 'network', severity: 'high', typeName: 'Network' },
  });
  const local = today - 2 * DAY + 14 * 3_600_000;
  incident({
    agentIds: [outdated.agentId],
    agentLocal: true,
    from: local,
    to: local + 45 * 60_000,
    pattern: 'down',
    cause: 'Local network problem at the agent',
    event: { type: 'agent-local', severity: 'low', typeName: 'Agent Local' },
  });

  const orders = test('Orders API', 'http-server', 60, cloud.slice(14, 15), http('orders.acme.example.com'));
  rule('Orders API errors', 1, [orders]);
  incident({ testId: orders.testId, from: now - 8 * DAY, pattern: 'flap', periodSeconds: 20_160, cause: 'HTTP 502' });
  const dataCenters = world.accountGroups.find(
    (candidate) => candidate.orgId === org.orgId && candidate.accountGroupName === 'Acme - Data Centers',
  );
  const unwatched = world.agents.find(
    (agent) => agent.agentType === 'enterprise' && dataCenters && agent.aids.includes(dataCenters.aid),
  );
  if (dataCenters && unwatched) dataCenters.agentsOutsideOfflineRule = [unwatched.agentId];

  // The alerts the rules derive up to the world's moment are part of its history (every reader of the world's
  // alerts sees them); the platform routes derive the later ones on request.
  for (const derived of derivedAlerts(world, group.aid, world.seed, now)) {
    const { agentIds: _agents, cause: _cause, ...alert } = derived;
    world.alerts.push({ ...alert, derived: true });
  }
}

/** The second organization's endpoint agents in use, as a share of its licences (see above). */
export const ENDPOINT_IN_USE_SHARE_SECOND = 0.75;

/** Each organization's plan: included units against the projection of the current period (see above). */
export function planBilling(world: World, now: number): void {
  const [start, end] = billingPeriod(now);
  world.organizations.forEach((org, index) => {
    const aids = new Set(world.accountGroups.filter((group) => group.orgId === org.orgId).map((group) => group.aid));
    const projected = unitsOfTests(world, aids, start, end, now).reduce(
      (sum, units) => sum + units.cloudUnitsProjected,
      0,
    );
    const share =
      world.accountGroups.length > 50
        ? PROJECTED_SHARE_OF_QUOTA.large
        : index === 0
          ? PROJECTED_SHARE_OF_QUOTA.first
          : PROJECTED_SHARE_OF_QUOTA.others;
    const endpoints = world.endpointAgents.filter((agent) => aids.has(agent.aid)).length;
    org.billing = {
      cloudUnitsIncluded: Math.max(1, Math.round(projected / share)),
      usagePricing: index === 0,
      // The demo's second organization licenses endpoint agents its people mostly use; the others have 500.
      ...(index === 1 && world.accountGroups.length <= 50 && endpoints
        ? { endpointAgentsIncluded: Math.round(endpoints / ENDPOINT_IN_USE_SHARE_SECOND) }
        : {}),
    };
  });
}
