import type {
  AccountGroup,
  Widget,
  Agent,
  Alert,
  AlertRule,
  AuditEvent,
  Dashboard,
  EndpointAgent,
  EndpointDynamicTest,
  EndpointLabel,
  EndpointTest,
  Organization,
  Role,
  SuppressionWindow,
  Tag,
  Test,
  TestType,
  Token,
  User,
} from './model.js';
import { SeededRandom } from './random.js';

export type WorldSize = 'demo' | 'large';

export interface World {
  /** The moment the world's dates were spread back from (epoch milliseconds). */
  now: number;
  organizations: Organization[];
  accountGroups: AccountGroup[];
  agents: Agent[];
  tests: Test[];
  alertRules: AlertRule[];
  alerts: Alert[];
  users: User[];
  roles: Role[];
  dashboards: Dashboard[];
  suppressionWindows: SuppressionWindow[];
  tags: Tag[];
  endpointAgents: EndpointAgent[];
  endpointTests: EndpointTest[];
  endpointDynamicTests: EndpointDynamicTest[];
  endpointLabels: EndpointLabel[];
  auditEvents: AuditEvent[];
  tokens: Token[];
}

export interface GeneratorOptions {
  seed?: string;
  size?: WorldSize;
  /** The moment dates are spread back from (defaults to today, 00:00 UTC). */
  now?: number;
}

const DAY = 86_400_000;

const ORGS = [
  {
    name: 'Acme Corporation',
    slug: 'acme',
    groups: [
      'Acme - Production',
      'Acme - Staging',
      'Acme - EMEA Branches',
      'Acme - APAC Offices',
      'Acme - Data Centers',
      'Acme - SaaS Apps',
    ],
  },
  {
    name: 'Globex Financial',
    slug: 'globex',
    groups: [
      'Globex - Trading Platform',
      'Globex - Retail Banking',
      'Globex - Call Centers',
      'Globex - Cloud Migration',
      'Globex - Branch Network',
      'Globex - Security Ops',
    ],
  },
];

const CLOUD_LOCATIONS: [string, string][] = [
  ['Amsterdam, Netherlands', 'NL'],
  ['Ashburn, VA', 'US'],
  ['Atlanta, GA', 'US'],
  ['Chicago, IL', 'US'],
  ['Dallas, TX', 'US'],
  ['Frankfurt, Germany', 'DE'],
  ['Hong Kong', 'HK'],
  ['London, England', 'GB'],
  ['Los Angeles, CA', 'US'],
  ['Madrid, Spain', 'ES'],
  ['Mumbai, India', 'IN'],
  ['New York, NY', 'US'],
  ['Paris, France', 'FR'],
  ['São Paulo, Brazil', 'BR'],
  ['Singapore', 'SG'],
  ['Sydney, Australia', 'AU'],
  ['Tokyo, Japan', 'JP'],
  ['Toronto, Canada', 'CA'],
  ['Seattle, WA', 'US'],
  ['Stockholm, Sweden', 'SE'],
];
const OFFICE_LOCATIONS: [string, string][] = [
  ['Austin, TX', 'US'],
  ['Boston, MA', 'US'],
  ['Dublin, Ireland', 'IE'],
  ['Milan, Italy', 'IT'],
  ['Munich, Germany', 'DE'],
  ['Raleigh, NC', 'US'],
  ['San Jose, CA', 'US'],
  ['Warsaw, Poland', 'PL'],
  ['Bangalore, India', 'IN'],
  ['Melbourne, Australia', 'AU'],
  ['Mexico City, Mexico', 'MX'],
  ['Zurich, Switzerland', 'CH'],
];
const TARGETS = [
  'www.salesforce.com',
  'login.microsoftonline.com',
  'outlook.office365.com',
  'app.zoom.us',
  'www.webex.com',
  'api.github.com',
  'portal.azure.com',
  'console.aws.amazon.com',
  'mail.google.com',
  'slack.com',
  'www.servicenow.com',
  'my.workday.com',
  'intranet.example.com',
  'vpn.example.com',
  'sap.example.com',
];
const FIRST = [
  'Ana',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kara',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
];
const LAST = [
  'Anders',
  'Bauer',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Silva',
  'Tanaka',
  'Weber',
];
const TEST_TYPES: TestType[] = ['http-server', 'page-load', 'dns-server', 'dns-trace', 'agent-to-server', 'bgp'];
const INTERVALS = [60, 120, 300, 600, 900, 1800, 3600];
const WIDGET_TYPES = [
  'Time Series: Line',
  'Number',
  'Table',
  'Map',
  'Bar Chart: Stacked',
  'Alert List',
  'Pie Chart',
  'Agent Status',
];
const AUDIT_EVENTS = [
  'Login',
  'Test created',
  'Test updated',
  'Test deleted',
  'Alert rule updated',
  'Dashboard created',
  'Agent updated',
  'User invited',
  'Report viewed',
  'API token created',
];

const ALERT_RULE_TEMPLATES: {
  name: string;
  alertType: string;
  expression: string;
  direction?: AlertRule['direction'];
  severity: AlertRule['severity'];
}[] = [
  {
    name: 'Default HTTP Alert Rule',
    alertType: 'http-server',
    expression: '((errorType != "None"))',
    severity: 'major',
  },
  {
    name: 'Default Network Alert Rule',
    alertType: 'end-to-end-server',
    expression: '((loss >= 10%) || (probDetail != ""))',
    direction: 'to-target',
    severity: 'major',
  },
  {
    name: 'Default DNS Server Alert Rule',
    alertType: 'dns-server',
    expression: '((probDetail != ""))',
    severity: 'minor',
  },
  {
    name: 'Default Page Load Alert Rule',
    alertType: 'page-load',
    expression: '((responseCode != "200"))',
    severity: 'minor',
  },
  { name: 'Default BGP Alert Rule', alertType: 'bgp', expression: '((reachability < 100%))', severity: 'critical' },
  {
    name: 'High Latency',
    alertType: 'end-to-end-server',
    expression: '((latency >= 150 ms))',
    direction: 'to-target',
    severity: 'minor',
  },
  {
    name: 'Slow Response Time',
    alertType: 'http-server',
    expression: '((responseTime >= 2000 ms))',
    severity: 'minor',
  },
  {
    name: 'Packet Loss Critical',
    alertType: 'end-to-end-server',
    expression: '((loss >= 10%) || (probDetail != ""))',
    direction: 'to-target',
    severity: 'critical',
  },
  {
    name: 'Path Trace Changed',
    alertType: 'path-trace',
    expression: '((pathLength >= 20))',
    direction: 'to-target',
    severity: 'info',
  },
  { name: 'DNS Resolution Failed', alertType: 'dns-trace', expression: '((errorType != "None"))', severity: 'major' },
];

/** Tokens depend only on the seed and the organization, so they stay the same when the data changes. */
function tokenSuffix(seed: string, purpose: string): string {
  return new SeededRandom(`${seed}:token:${purpose}`).hex(24);
}

/** Builds a world from a seed: the same seed, size and day always give the same data. */
export function generateWorld(options: GeneratorOptions = {}): World {
  const seed = options.seed ?? 'ce-toolkit';
  const size = options.size ?? 'demo';
  const now = options.now ?? Math.floor(Date.now() / DAY) * DAY;
  const random = new SeededRandom(`${seed}:${size}`);
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const daysAgo = (min: number, max: number) =>
    iso(now - random.int(min * 24, max * 24) * 3_600_000 - random.int(0, 3599) * 1000);
  let nextId = 1000;
  const id = (prefix = '') => `${prefix}${++nextId}`;
  const uuid = () => `${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-a${random.hex(3)}-${random.hex(12)}`;

  const plan =
    size === 'large'
      ? {
          orgs: [
            {
              name: 'Initech Global',
              slug: 'initech',
              groups: Array.from(
                { length: 100 },
                (_, index) => `Initech - Region ${String(index + 1).padStart(3, '0')}`,
              ),
            },
          ],
          testsPerGroup: 100,
          rulesPerGroup: 30,
          usersPerOrg: 1000,
          enterprisePerGroup: 5,
          dashboardsPerGroup: 2,
          alertsPerGroup: 10,
          endpointPerGroup: 10,
          auditPerGroup: 20,
        }
      : {
          orgs: ORGS,
          testsPerGroup: 12,
          rulesPerGroup: 5,
          usersPerOrg: 15,
          enterprisePerGroup: 4,
          dashboardsPerGroup: 3,
          alertsPerGroup: 40,
          endpointPerGroup: 25,
          auditPerGroup: 60,
        };

  const world: World = {
    now,
    organizations: [],
    accountGroups: [],
    agents: [],
    tests: [],
    alertRules: [],
    alerts: [],
    users: [],
    roles: [],
    dashboards: [],
    suppressionWindows: [],
    tags: [],
    endpointAgents: [],
    endpointTests: [],
    endpointDynamicTests: [],
    endpointLabels: [],
    auditEvents: [],
    tokens: [],
  };

  world.roles = [
    { roleId: '1', name: 'Organization Admin', isBuiltin: true, hasManagementPermissions: true },
    { roleId: '2', name: 'Account Admin', isBuiltin: true, hasManagementPermissions: true },
    { roleId: '3', name: 'Regular User', isBuiltin: true, hasManagementPermissions: false },
    { roleId: '4', name: 'Read Only User', isBuiltin: true, hasManagementPermissions: false },
  ];

  // Cloud agents are shared by every account group.
  CLOUD_LOCATIONS.forEach(([location, countryId], index) => {
    world.agents.push({
      agentId: String(100 + index),
      agentName: location,
      agentType: 'cloud',
      location,
      countryId,
      enabled: true,
      ipAddresses: [`104.${index}.${random.int(1, 254)}.${random.int(1, 254)}`],
      publicIpAddresses: [`104.${index}.${random.int(1, 254)}.${random.int(1, 254)}`],
      network: `Cloud Provider ${index % 4 === 0 ? 'Alpha' : 'Beta'} (AS ${64_500 + index})`,
      aids: [],
    });
  });
  const cloudAgentIds = world.agents.map((agent) => agent.agentId);

  plan.orgs.forEach((orgPlan, orgIndex) => {
    const org: Organization = { orgId: String(9000 + orgIndex), name: orgPlan.name, slug: orgPlan.slug };
    world.organizations.push(org);
    world.tokens.push({
      token: `sbx-org-admin-${org.slug}-${tokenSuffix(seed, `admin:${org.slug}`)}`,
      orgId: org.orgId,
      kind: 'org-admin',
      description: `Org Admin of ${org.name}: every account group, reads and writes`,
    });

    const groups = orgPlan.groups.map((name, index): AccountGroup => ({
      aid: id(),
      accountGroupName: name,
      orgId: org.orgId,
      organizationName: org.name,
      isDefault: index === 0,
    }));
    world.accountGroups.push(...groups);

    const emailDomain = `${org.slug}.example.com`;
    const orgUsers: User[] = Array.from({ length: plan.usersPerOrg }, (_, index) => {
      const first = FIRST[index % FIRST.length] ?? 'User';
      const last = LAST[Math.floor(index / FIRST.length) % LAST.length] ?? 'Person';
      const suffix = index >= FIRST.length * LAST.length ? String(index) : '';
      const home = groups[index % groups.length] as AccountGroup;
      const roleIdsByAid: Record<string, string[]> = {};
      for (const group of groups) {
        if (group === home || random.chance(0.3))
          roleIdsByAid[group.aid] = [index === 0 ? '1' : random.pick(['2', '3', '3', '4'])];
      }
      // Last logins spread over a year; a few never logged in.
      const lastLogin = random.chance(0.08) ? undefined : daysAgo(0, 365);
      return {
        uid: id(),
        orgId: org.orgId,
        name: `${first} ${last}${suffix ? ` ${suffix}` : ''}`,
        email: `${first}.${last}${suffix}@${emailDomain}`.toLowerCase(),
        dateRegistered: daysAgo(370, 1500),
        lastLogin,
        loginAid: home.aid,
        roleIdsByAid,
      };
    });
    world.users.push(...orgUsers);

    for (const group of groups) {
      // Enterprise agents; in each group one pair shares IP and location (a duplicate to clean up).
      const groupAgents: Agent[] = [];
      for (let index = 0; index < plan.enterprisePerGroup; index++) {
        const [location, countryId] = random.pick(OFFICE_LOCATIONS);
        const duplicateOf = index === plan.enterprisePerGroup - 1 ? groupAgents[0] : undefined;
        const ip =
          duplicateOf?.ipAddresses[0] ?? `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(2, 254)}`;
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
          dashboardId: random.hex(24),
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
  });

  addEndpointSelection(world, now, () => id());
  addDashboardReferences(world);
  // The large world keeps its round sizes (100 groups, 10,000 tests, 3,000 rules) for the benchmarks.
  if (size === 'demo') plantHealthCases(world, now, () => id());
  world.alerts.sort((a, b) => b.startDate.localeCompare(a.startDate));
  world.auditEvents.sort((a, b) => b.date.localeCompare(a.date));

  const firstOrg = world.organizations[0];
  if (firstOrg) {
    world.tokens.push(
      {
        token: `sbx-read-only-${firstOrg.slug}-${tokenSuffix(seed, `read-only:${firstOrg.slug}`)}`,
        orgId: firstOrg.orgId,
        kind: 'read-only',
        description: `Read-only user of ${firstOrg.name}: reads work, writes and admin endpoints answer 403`,
      },
      {
        token: `sbx-revoked-${firstOrg.slug}-${tokenSuffix(seed, `revoked:${firstOrg.slug}`)}`,
        orgId: firstOrg.orgId,
        kind: 'revoked',
        description: 'A revoked token: every call answers 401',
      },
    );
  }
  return world;
}

/**
 * Cases on both sides of every health-check threshold, for both profiles, in the first organization's
 * first account group (added after the seeded data, so nothing else moves): users who signed in 2, 35 and
 * 60 days ago and never; rules triggered 10 and 11 times in the last 30 days; rules whose alerts were
 * active 49% and 51% of the last 30 days; disabled tests created 179 and 181 days ago; raised time limits
 * left for 60 days and changed 10 days ago; dashboards with one and two widgets.
 */
function plantHealthCases(world: World, now: number, nextId: () => string): void {
  const org = world.organizations[0];
  const group = world.accountGroups.find((candidate) => candidate.orgId === org?.orgId);
  if (!org || !group) return;
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const ago = (days: number) => iso(now - days * DAY);
  const hex = (value: number, length: number) => value.toString(16).padStart(length, '0');

  const orgUsers = world.users.filter((user) => user.orgId === org.orgId);
  const planted: [number, number | undefined, string][] = [
    [2, 2, '3'],
    [3, 35, '3'],
    [4, 60, '2'],
    [5, undefined, '4'],
  ];
  for (const [index, days, roleId] of planted) {
    const user = orgUsers[index];
    if (!user) continue;
    user.lastLogin = days === undefined ? undefined : ago(days);
    user.dateRegistered = ago(400);
    user.roleIdsByAid[group.aid] = [roleId];
  }

  const author = orgUsers[0]?.email ?? 'admin@example.com';
  const test = (
    name: string,
    options: { created: number; modified: number; enabled: boolean; alerts: boolean; limit: number },
  ) => {
    const created: Test = {
      testId: nextId(),
      aid: group.aid,
      type: 'http-server',
      testName: name,
      interval: 300,
      enabled: options.enabled,
      alertsEnabled: options.alerts,
      description: '',
      createdBy: author,
      createdDate: ago(options.created),
      modifiedBy: author,
      modifiedDate: ago(options.modified),
      agentIds: world.agents
        .filter((agent) => agent.agentType === 'cloud')
        .slice(0, 2)
        .map((agent) => agent.agentId),
      alertRuleIds: [],
      config: {
        url: `https://${name.toLowerCase().replace(/[^a-z]+/g, '-')}.example.com/`,
        protocol: 'tcp',
        httpTimeLimit: options.limit,
      },
    };
    world.tests.push(created);
    return created;
  };
  test('Legacy intranet portal', { created: 181, modified: 181, enabled: false, alerts: false, limit: 5 });
  test('Partner extranet pilot', { created: 179, modified: 179, enabled: false, alerts: false, limit: 5 });
  const slow = test('Payroll portal', { created: 300, modified: 60, enabled: true, alerts: true, limit: 30 });
  const tuned = test('Expense app', { created: 300, modified: 10, enabled: true, alerts: true, limit: 20 });

  const rule = (ruleName: string, severity: AlertRule['severity'], tests: Test[]) => {
    const created: AlertRule = {
      ruleId: nextId(),
      aid: group.aid,
      ruleName,
      expression: '((errorType != "None"))',
      notifyOnClear: true,
      isDefault: false,
      alertType: 'http-server',
      alertGroupType: 'cloud-enterprise',
      minimumSources: 1,
      roundsViolatingMode: 'exact',
      roundsViolatingOutOf: 1,
      roundsViolatingRequired: 1,
      severity,
      description: '',
      testIds: tests.map((item) => item.testId),
      notificationEmails: [`noc@${org.slug}.example.com`],
    };
    world.alertRules.push(created);
    for (const item of tests) item.alertRuleIds.push(created.ruleId);
    return created;
  };
  let alertNumber = 0;
  const alert = (ruleOf: AlertRule, testOf: Test, start: number, end: number | undefined) => {
    alertNumber += 1;
    world.alerts.push({
      id: `${hex(0xbeef0000 + alertNumber, 8)}-0000-4000-a000-${hex(Number(ruleOf.ruleId), 12)}`,
      aid: group.aid,
      alertType: ruleOf.alertType,
      alertRuleId: ruleOf.ruleId,
      alertState: end === undefined ? 'trigger' : 'clear',
      alertSeverity: ruleOf.severity,
      startDate: iso(start),
      ...(end === undefined ? {} : { endDate: iso(end) }),
      violationCount: 1,
      duration: Math.round(((end ?? now) - start) / 1000),
      suppressed: false,
      testId: testOf.testId,
    });
  };
  const ten = rule('Payroll availability', 'minor', [slow]);
  const eleven = rule('Expense app errors', 'major', [tuned]);
  for (let index = 0; index < 11; index++) {
    if (index < 10) alert(ten, slow, now - (2 + index * 2.5) * DAY, now - (2 + index * 2.5) * DAY + 600_000);
    alert(eleven, tuned, now - (1 + index * 2.5) * DAY, now - (1 + index * 2.5) * DAY + 600_000);
  }
  const mostly = rule('Branch VPN reachability', 'critical', [slow]);
  alert(mostly, slow, now - 0.51 * 30 * DAY, undefined);
  const half = rule('Certificate expiry', 'info', [tuned]);
  alert(half, tuned, now - 20 * DAY, now - 20 * DAY + 0.49 * 30 * DAY);

  const widget = (title: string, testIds: string[]): Widget => ({
    id: `${hex(0xa000 + alertNumber++, 4)}-${hex(0xb000, 4)}`,
    type: 'Time Series: Line',
    title,
    visualMode: 'Full',
    dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
    metricGroup: 'HTTP_SERVER',
    metric: 'WEB_AVAILABILITY',
    filters: { TEST: testIds },
  });
  const dashboard = (title: string, widgets: Widget[]) =>
    world.dashboards.push({
      dashboardId: `${hex(Number(group.aid), 12)}${hex(world.dashboards.length, 12)}`,
      aid: group.aid,
      title,
      description: `Health of ${group.accountGroupName}`,
      isBuiltIn: false,
      isPrivate: false,
      createdBy: orgUsers[0]?.uid ?? '1',
      modifiedDate: ago(20),
      widgets,
    });
  dashboard('Payroll at a glance', [widget('Payroll availability', [slow.testId])]);
  dashboard('Expenses', [
    widget('Expense availability', [tuned.testId]),
    widget('Expense response time', [tuned.testId]),
  ]);
}

/**
 * Widget filters naming tests, agents and tags of the dashboard's own account group (test names repeat
 * across groups, so pushing a dashboard elsewhere must remap them by name), and a grid layout. Only tests
 * that are enabled and alert are named, so no health finding changes. Added without drawing from the seed.
 */
function addDashboardReferences(world: World): void {
  const cloudAgents = world.agents.filter((agent) => agent.agentType === 'cloud');
  for (const [index, dashboard] of world.dashboards.entries()) {
    const tests = world.tests.filter((test) => test.aid === dashboard.aid && test.enabled && test.alertsEnabled);
    const agents = world.agents.filter(
      (agent) => agent.agentType === 'enterprise' && agent.aids.includes(dashboard.aid),
    );
    const tag = world.tags.find((candidate) => candidate.aid === dashboard.aid && candidate.key === 'environment');
    const pick = <T>(list: T[], offset: number) => (list.length ? [list[(index + offset) % list.length] as T] : []);
    dashboard.widgets = dashboard.widgets.map((widget, position) => ({
      ...widget,
      filters: {
        TEST: [...new Set([...pick(tests, position), ...pick(tests, position + 3)].map((test) => test.testId))],
        AGENT: [...pick(cloudAgents, position), ...pick(agents, position)].map((agent) => agent.agentId),
        ...(tag ? { TAG: [tag.id] } : {}),
      },
    }));
    dashboard.layout = {
      type: 'grid',
      details: {
        widgetPositioning: dashboard.widgets.map((widget, position) => ({
          id: widget.id,
          x: (position % 2) * 6,
          y: Math.floor(position / 2) * 4,
          w: 6,
          h: 4,
        })),
      },
    };
  }
}

/**
 * Endpoint agent labels (Windows laptops; Macs or one named host), a selector on every scheduled endpoint test (all
 * agents, a label, or three named agents, in turn) and a dynamic Webex test per account group. Added after
 * the seeded data, without drawing from the seed, so nothing else moves.
 */
function addEndpointSelection(world: World, now: number, nextId: () => string): void {
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const group of world.accountGroups) {
    const agents = world.endpointAgents.filter((agent) => agent.aid === group.aid);
    const labels: EndpointLabel[] = [
      {
        id: `label-${group.aid}-windows`,
        aid: group.aid,
        name: 'Windows laptops',
        color: '#1d4ed8',
        matchType: 'and',
        filters: [{ key: 'platform', values: ['windows'], mode: 'in' }],
      },
      {
        id: `label-${group.aid}-macs`,
        aid: group.aid,
        name: 'Macs and the help desk',
        color: '#d97706',
        matchType: 'or',
        filters: [
          { key: 'platform', values: ['mac'], mode: 'in' },
          { key: 'hostname', values: agents.slice(0, 1).map((agent) => agent.computerName), mode: 'in' },
        ],
      },
    ];
    world.endpointLabels.push(...labels);
    world.endpointTests
      .filter((test) => test.aid === group.aid)
      .forEach((test, index) => {
        test.agentSelectorConfig =
          index % 3 === 0
            ? { agentSelectorType: 'all-agents', maxMachines: 25 }
            : index % 3 === 1
              ? { agentSelectorType: 'agent-labels', endpointAgentLabels: [labels[0]?.id ?? ''], maxMachines: 25 }
              : {
                  agentSelectorType: 'specific-agents',
                  agents: agents.slice(0, 3).map((agent) => agent.id),
                  maxMachines: 3,
                };
      });
    world.endpointDynamicTests.push({
      testId: nextId(),
      aid: group.aid,
      testName: 'Webex meetings',
      application: 'webex',
      interval: 300,
      isEnabled: true,
      createdDate: iso(now - 90 * DAY),
      agentSelectorConfig: {
        agentSelectorType: 'agent-labels',
        endpointAgentLabels: [labels[0]?.id ?? ''],
        maxMachines: 50,
      },
    });
  }
}
