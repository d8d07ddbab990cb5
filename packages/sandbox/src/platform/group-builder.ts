import type { AccountGroup, Agent, AlertRule, Organization, Test, TestType, User } from './model.js';
import type { SeededRandom } from './random.js';
import {
  DAY,
  OFFICE_LOCATIONS,
  TARGETS,
  TEST_TYPES,
  INTERVALS,
  WIDGET_TYPES,
  AUDIT_EVENTS,
  ALERT_RULE_TEMPLATES,
} from './world-tables.js';
import type { World, WorldSize } from './world.js';

/** How big each part of the world is. */
export interface WorldPlan {
  orgs: { name: string; slug: string; groups: string[] }[];
  testsPerGroup: number;
  rulesPerGroup: number;
  usersPerOrg: number;
  enterprisePerGroup: number;
  dashboardsPerGroup: number;
  alertsPerGroup: number;
  endpointPerGroup: number;
  auditPerGroup: number;
}

/** What building one organization's account groups draws on: the world so far, its random source and clock. */
export interface OrganizationBuild {
  world: World;
  random: SeededRandom;
  plan: WorldPlan;
  size: WorldSize;
  now: number;
  id(prefix?: string): string;
  uuid(): string;
  /** Marks a hex id as the copy's (unchanged in the world itself). */
  copyTag(hex: string): string;
  iso(time: number): string;
  daysAgo(min: number, max: number): string;
  org: Organization;
  orgIndex: number;
  emailDomain: string;
  orgUsers: User[];
  cloudAgentIds: string[];
}

/**
 * One account group's contents: enterprise agents (one duplicate pair), tests, alert rules and alerts,
 * suppression windows, dashboards, tags, endpoint agents and tests, audit events. The random draws come in
 * the same order whatever else changes, so a seed always gives the same group.
 */
export function buildGroup(group: AccountGroup, build: OrganizationBuild): void {
  const {
    world,
    random,
    plan,
    id,
    uuid,
    copyTag,
    daysAgo,
    iso,
    now,
    size,
    org,
    orgIndex,
    emailDomain,
    orgUsers,
    cloudAgentIds,
  } = build;
  // Enterprise agents; in each group one pair shares IP and location (a duplicate to clean up).
  const groupAgents: Agent[] = [];
  for (let index = 0; index < plan.enterprisePerGroup; index++) {
    const [location, countryId] = random.pick(OFFICE_LOCATIONS);
    const duplicateOf = index === plan.enterprisePerGroup - 1 ? groupAgents[0] : undefined;
    const ip = duplicateOf?.ipAddresses[0] ?? `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(2, 254)}`;
    const state = random.chance(0.8) ? 'online' : 'offline';
    const agent: Agent = {
      agentId: id(),
      agentName: `${group.accountGroupName.split(' - ')[1] ?? 'Site'} EA ${index + 1}`
        .replace(/\s+/g, '-')
        .toLowerCase(),
      agentType: 'enterprise',
      location: duplicateOf?.location ?? location,
      countryId: duplicateOf?.countryId ?? countryId,
      enabled: state === 'online',
      ipAddresses: [ip],
      publicIpAddresses: [`198.51.${random.int(0, 255)}.${random.int(1, 254)}`],
      network: `${org.name} (AS ${65_000 + orgIndex})`,
      hostname: `ea-${group.aid}-${index + 1}.${emailDomain}`,
      lastSeen: daysAgo(0, duplicateOf ? 200 : 3),
      agentState: state,
      createdDate: daysAgo(200, 900),
      aids: [group.aid],
    };
    groupAgents.push(agent);
  }
  world.agents.push(...groupAgents);
  const usableAgents = [...cloudAgentIds, ...groupAgents.map((agent) => agent.agentId)];
  const author = orgUsers.find((user) => user.loginAid === group.aid) ?? orgUsers[0];

  const groupTests: Test[] = [];
  for (let index = 0; index < plan.testsPerGroup; index++) {
    const type = TEST_TYPES[index % TEST_TYPES.length] as TestType;
    const target = random.pick(TARGETS);
    const created = daysAgo(1, 720);
    const config: Record<string, unknown> =
      type === 'http-server'
        ? { url: `https://${target}/`, protocol: 'tcp', httpTimeLimit: 5 }
        : type === 'page-load'
          ? { url: `https://${target}/`, protocol: 'tcp', httpTimeLimit: 5, pageLoadTimeLimit: 10 }
          : type === 'dns-server'
            ? { domain: `${target} A`, dnsServers: [{ serverId: '1447', serverName: 'ns1.example.net' }] }
            : type === 'dns-trace'
              ? { domain: `${target} A` }
              : type === 'agent-to-server'
                ? { server: target, port: 443, protocol: 'tcp' }
                : { prefix: `203.0.${index % 256}.0/24`, usePublicBgp: true };
    groupTests.push({
      testId: id(),
      aid: group.aid,
      type,
      testName: `${type === 'bgp' ? 'BGP' : target} - ${type}${index >= TEST_TYPES.length ? ` ${Math.floor(index / TEST_TYPES.length) + 1}` : ''}`,
      interval: type === 'bgp' ? 900 : random.pick(INTERVALS),
      enabled: random.chance(0.9),
      alertsEnabled: random.chance(0.85),
      description: random.chance(0.4) ? `Monitors ${target} for ${group.accountGroupName}` : '',
      createdBy: author?.email ?? 'admin@example.com',
      createdDate: created,
      modifiedBy: author?.email ?? 'admin@example.com',
      modifiedDate: created,
      agentIds:
        type === 'bgp'
          ? []
          : Array.from(new Set(Array.from({ length: random.int(2, 5) }, () => random.pick(usableAgents)))),
      alertRuleIds: [],
      config,
    });
  }
  world.tests.push(...groupTests);

  const groupRules: AlertRule[] = [];
  for (let index = 0; index < plan.rulesPerGroup; index++) {
    const template = ALERT_RULE_TEMPLATES[index % ALERT_RULE_TEMPLATES.length] ?? ALERT_RULE_TEMPLATES[0];
    if (!template) break;
    const outOf = random.pick([1, 2, 3, 5]);
    const matching = groupTests.filter((test) => template.alertType.includes(test.type.split('-')[0] ?? ''));
    // Some rules cover no test and some notify nobody: findings for the alerts report.
    const testIds = random.chance(0.25)
      ? []
      : matching.slice(0, random.int(1, Math.max(1, matching.length))).map((test) => test.testId);
    groupRules.push({
      ruleId: id(),
      aid: group.aid,
      ruleName:
        index < ALERT_RULE_TEMPLATES.length
          ? template.name
          : `${template.name} ${Math.floor(index / ALERT_RULE_TEMPLATES.length) + 1}`,
      expression: template.expression,
      direction: template.direction,
      notifyOnClear: random.chance(0.5),
      isDefault: template.name.startsWith('Default'),
      alertType: template.alertType,
      alertGroupType: template.alertType === 'bgp' ? 'bgp' : 'cloud-enterprise',
      minimumSources: random.int(1, 3),
      roundsViolatingMode: random.pick(['exact', 'any'] as const),
      roundsViolatingOutOf: outOf,
      roundsViolatingRequired: random.int(1, outOf),
      severity: template.severity,
      description: '',
      testIds,
      notificationEmails: random.chance(0.3) ? [] : [`noc@${emailDomain}`],
    });
    for (const test of groupTests)
      if (testIds.includes(test.testId)) test.alertRuleIds.push(groupRules.at(-1)?.ruleId ?? '');
  }
  world.alertRules.push(...groupRules);

  for (let index = 0; index < plan.alertsPerGroup && groupRules.length > 0; index++) {
    const rule = random.pick(groupRules);
    const test = groupTests.find((candidate) => rule.testIds.includes(candidate.testId)) ?? random.pick(groupTests);
    const start = now - random.int(1, 90 * 24) * 3_600_000;
    const active = random.chance(0.15);
    const duration = active ? Math.round((now - start) / 1000) : random.int(5, 600) * 60;
    world.alerts.push({
      id: uuid(),
      aid: group.aid,
      alertType: rule.alertType,
      alertRuleId: rule.ruleId,
      alertState: active ? 'trigger' : 'clear',
      alertSeverity: rule.severity,
      startDate: iso(start),
      endDate: active ? undefined : iso(start + duration * 1000),
      violationCount: random.int(1, 40),
      duration,
      suppressed: random.chance(0.05),
      testId: test.testId,
    });
  }

  for (let index = 0; index < plan.dashboardsPerGroup; index++) {
    const widgets = Array.from({ length: random.int(1, 5) }, (_, widgetIndex) => ({
      id: `${random.hex(4)}-${random.hex(4)}`,
      type: random.pick(WIDGET_TYPES),
      title: `${random.pick(['Latency', 'Availability', 'Packet Loss', 'Response Time', 'Active Alerts', 'Agent Health'])} ${widgetIndex + 1}`,
      visualMode: random.pick(['Full', 'Half screen'] as const),
      dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
      metricGroup: 'HTTP_SERVER',
      metric: 'WEB_AVAILABILITY',
    }));
    world.dashboards.push({
      dashboardId: copyTag(random.hex(24)),
      aid: group.aid,
      title: `${group.accountGroupName.split(' - ')[1] ?? group.accountGroupName} ${['Overview', 'SaaS Health', 'Network Performance', 'Executive View'][index % 4]}`,
      description: `Key metrics for ${group.accountGroupName}`,
      isBuiltIn: false,
      isPrivate: false,
      createdBy: author?.uid ?? '1',
      modifiedDate: daysAgo(1, 300),
      widgets,
    });
  }

  const windowCount = size === 'large' ? 1 : 3;
  for (let index = 0; index < windowCount; index++) {
    const kind = index % 3; // upcoming, repeating (active now or soon), ended
    const start =
      kind === 0
        ? now + random.int(1, 20) * DAY
        : kind === 1
          ? now - random.int(1, 30) * DAY
          : now - random.int(40, 120) * DAY;
    world.suppressionWindows.push({
      alertSuppressionWindowId: id(),
      aid: group.aid,
      name: ['Quarterly network upgrade', 'Weekly patch window', 'Data center migration'][kind] ?? 'Maintenance',
      isEnabled: true,
      startDate: iso(start + 2 * 3_600_000),
      duration: [4 * 3600, 2 * 3600, 8 * 3600][kind] ?? 3600,
      repeat: kind === 1 ? { type: 'week', intervalLength: 1, daysOfWeek: ['sun'] } : undefined,
      endRepeat: kind === 1 ? { type: 'never' } : undefined,
      testIds: groupTests.slice(0, random.int(1, Math.min(4, groupTests.length))).map((test) => test.testId),
    });
  }

  for (const [key, value] of [
    ['environment', 'production'],
    ['team', 'network'],
    ['criticality', 'high'],
  ] as const) {
    world.tags.push({
      id: uuid(),
      aid: group.aid,
      key,
      value,
      objectType: 'test',
      color: random.pick(['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728']),
      description: '',
      createDate: daysAgo(30, 400),
      assignments: groupTests.filter(() => random.chance(0.3)).map((test) => ({ id: test.testId, type: 'test' })),
    });
  }

  for (let index = 0; index < plan.endpointPerGroup; index++) {
    const platform = random.chance(0.7) ? 'windows' : 'mac';
    const person = random.pick(orgUsers);
    world.endpointAgents.push({
      id: uuid(),
      aid: group.aid,
      name: `${person.name.split(' ')[0]?.toLowerCase() ?? 'user'}-${platform === 'windows' ? 'laptop' : 'mbp'}-${index + 1}`,
      computerName: `${platform === 'windows' ? 'WIN' : 'MAC'}-${random.hex(6).toUpperCase()}`,
      platform,
      osVersion: platform === 'windows' ? 'Windows 11 23H2' : 'macOS 14.5',
      version: random.pick(['1.198.0', '1.201.1', '1.204.0']),
      status: random.chance(0.9) ? 'enabled' : 'disabled',
      lastSeen: daysAgo(0, 45),
      createdAt: daysAgo(60, 700),
      licenseType: random.chance(0.6) ? 'advantage' : 'essentials',
      publicIP: `203.0.113.${random.int(1, 254)}`,
    });
  }
  for (let index = 0; index < (size === 'large' ? 2 : 4); index++) {
    const target = random.pick(TARGETS);
    const type = index % 2 === 0 ? 'http-server' : 'agent-to-server';
    world.endpointTests.push({
      testId: id(),
      aid: group.aid,
      testName: `${target} (endpoint ${type})`,
      type,
      interval: random.pick([60, 300, 600]),
      isEnabled: random.chance(0.85),
      ...(type === 'http-server' ? { url: `https://${target}/` } : { server: target }),
      protocol: type === 'http-server' ? 'tcp' : 'icmp',
    });
  }

  for (let index = 0; index < plan.auditPerGroup; index++) {
    const person = random.pick(orgUsers);
    const event = random.pick(AUDIT_EVENTS);
    world.auditEvents.push({
      aid: group.aid,
      date: daysAgo(0, 30),
      event,
      ipAddress: `198.51.100.${random.int(1, 254)}`,
      uid: person.uid,
      user: `${person.name} (${person.email})`,
      resources: event.startsWith('Test') ? [{ type: 'test', name: random.pick(groupTests).testName }] : [],
    });
  }
}
