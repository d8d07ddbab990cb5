import type { AlertRule, RuleIntegration, Test } from './model.js';
import type { World } from './world.js';

/** The account groups the alerts-migration cases live in (the first organization's last two). */
export const MIGRATION_SOURCE_GROUP = 'Acme - Data Centers';
export const MIGRATION_TARGET_GROUP = 'Acme - SaaS Apps';

/**
 * Alert rules that exercise every case of an alerts migration, from the first organization's
 * "Data Centers" group into its "SaaS Apps" group (planted after the seeded data, in groups no other
 * planted case uses, so nothing else moves):
 * - "Migration: portal latency": its tests are a test the target has and one it lacks; its webhook exists
 *   in the target by name; a third-party integration (kept within the organization only);
 * - "Migration: portal errors": an identical rule is in the target (unchanged);
 * - "Migration: portal availability": a rule of that name in the target differs in severity and rounds;
 * - "Migration: checkout availability": its only test is absent from the target, and its webhook too;
 * - a suppression window over the portal test, and a default rule.
 */
export function plantMigrationCases(world: World, nextId: () => string, copyTag: (hex: string) => string): void {
  const source = world.accountGroups.find((group) => group.accountGroupName === MIGRATION_SOURCE_GROUP);
  const target = world.accountGroups.find((group) => group.accountGroupName === MIGRATION_TARGET_GROUP);
  const org = world.organizations.find((candidate) => candidate.orgId === source?.orgId);
  if (!source || !target || !org) return;
  const cloudAgents = world.agents
    .filter((agent) => agent.agentType === 'cloud')
    .slice(0, 2)
    .map((agent) => agent.agentId);
  const webhook = (aid: string, name: string, index: number) => {
    const id = copyTag(`0c0ffee0-0000-4000-a000-${String(index).padStart(12, '0')}`);
    world.webhooks.push({ id, aid, name, enabled: true, category: 'alerts', status: 'connected', path: '/alerts' });
    return { kind: 'webhook', integrationId: id, integrationType: 'webhook', integrationName: name } as const;
  };
  const nocSource = webhook(source.aid, 'NOC webhook', 1);
  const pager = webhook(source.aid, 'Legacy pager bridge', 2);
  const nocTarget = webhook(target.aid, 'NOC webhook', 3);

  const test = (aid: string, testName: string, host: string): Test => {
    const created: Test = {
      testId: nextId(),
      aid,
      type: 'http-server',
      testName,
      interval: 300,
      enabled: true,
      alertsEnabled: true,
      description: '',
      createdBy: `admin@${org.slug}.example.com`,
      createdDate: new Date(world.now - 90 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      modifiedBy: `admin@${org.slug}.example.com`,
      modifiedDate: new Date(world.now - 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      agentIds: cloudAgents,
      alertRuleIds: [],
      config: { url: `https://${host}.example.com/`, protocol: 'tcp', httpTimeLimit: 5 },
    };
    world.tests.push(created);
    return created;
  };
  const portal = test(source.aid, 'Migration portal', 'portal');
  const checkout = test(source.aid, 'Migration checkout', 'checkout');
  const targetPortal = test(target.aid, 'Migration portal', 'portal');

  const rule = (
    aid: string,
    ruleName: string,
    tests: Test[],
    changes: Partial<AlertRule> & { integrations?: RuleIntegration[] } = {},
  ): AlertRule => {
    const created: AlertRule = {
      ruleId: nextId(),
      aid,
      ruleName,
      expression: '((responseTime >= 500 ms))',
      notifyOnClear: true,
      isDefault: false,
      alertType: 'http-server',
      alertGroupType: 'cloud-enterprise',
      minimumSources: 1,
      roundsViolatingMode: 'exact',
      roundsViolatingOutOf: 3,
      roundsViolatingRequired: 2,
      severity: 'major',
      description: '',
      testIds: tests.map((item) => item.testId),
      notificationEmails: [`noc@${org.slug}.example.com`],
      ...changes,
    };
    world.alertRules.push(created);
    for (const item of tests) item.alertRuleIds.push(created.ruleId);
    return created;
  };
  const pagerDuty = {
    kind: 'thirdParty',
    integrationId: 'pd-4411',
    integrationType: 'pager-duty',
  } satisfies RuleIntegration;
  rule(source.aid, 'Migration: portal latency', [portal, checkout], { integrations: [nocSource, pagerDuty] });
  rule(source.aid, 'Migration: portal errors', [portal], { expression: '((errorType != "None"))' });
  rule(source.aid, 'Migration: portal availability', [portal], { expression: '((availability < 99 %))' });
  rule(source.aid, 'Migration: checkout availability', [checkout], {
    expression: '((availability < 99 %))',
    integrations: [pager],
  });
  rule(source.aid, 'Migration: default HTTP rule', [], { isDefault: true, severity: 'minor' });
  rule(target.aid, 'Migration: portal errors', [targetPortal], { expression: '((errorType != "None"))' });
  rule(target.aid, 'Migration: portal availability', [targetPortal], {
    expression: '((availability < 99 %))',
    severity: 'critical',
    roundsViolatingOutOf: 5,
    integrations: [nocTarget],
  });
  world.suppressionWindows.push({
    alertSuppressionWindowId: nextId(),
    aid: source.aid,
    name: 'Migration: portal freeze',
    isEnabled: true,
    startDate: new Date(world.now + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    duration: 4 * 3600,
    testIds: [portal.testId],
  });
}
