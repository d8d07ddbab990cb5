import type { AccountGroup, Organization, Permission, User } from './model.js';
import { buildGroup, type OrganizationBuild, type WorldPlan } from './group-builder.js';
import { addDashboardReferences, addEndpointSelection, plantHealthCases } from './planted-cases.js';
import { plantMigrationCases } from './migration-cases.js';
import { planBilling, plantMeasuredCases } from './simulation/measured-cases.js';
import { SeededRandom } from './random.js';
import { DAY, ORGS, CLOUD_LOCATIONS, FIRST, LAST } from './world-tables.js';
import type { GeneratorOptions, World } from './world.js';

export type { GeneratorOptions, World, WorldSize } from './world.js';

/**
 * The permissions the sandbox's roles hold, labelled as the platform's role detail labels them (the
 * permission names are the sandbox's own: the published document shows only examples).
 */
const PERMISSIONS: Permission[] = [
  ['View tests', 'TESTS_READ', false],
  ['Edit tests', 'TESTS_UPDATE', false],
  ['View alert rules', 'ALERT_RULES_READ', false],
  ['Edit alert rules', 'ALERT_RULES_UPDATE', false],
  ['View alert suppression windows', 'ALERT_SUPPRESSION_WINDOWS_READ', false],
  ['Edit alert suppression windows', 'ALERT_SUPPRESSION_WINDOWS_UPDATE', false],
  ['View dashboards', 'DASHBOARDS_READ', false],
  ['Edit dashboards', 'DASHBOARDS_UPDATE', false],
  ['View all users', 'USERS_READ', true],
  ['Edit users', 'USERS_UPDATE', true],
].map(([label, permission, isManagementPermission], index) => ({
  permissionId: String(index + 1),
  label: String(label),
  permission: String(permission),
  isManagementPermission: Boolean(isManagementPermission),
}));

/** Tokens depend only on the seed and the organization, so they stay the same when the data changes. */
function tokenSuffix(seed: string, purpose: string, copy: number): string {
  return new SeededRandom(`${seed}:token:${purpose}${copy ? `:copy ${copy}` : ''}`).hex(24);
}

/** How far apart the numeric ids of two copies of the world are (the large world uses about 20,000). */
export const COPY_ID_SPAN = 100_000_000;

/** Builds a world from a seed: the same seed, size and day always give the same data. */
export function generateWorld(options: GeneratorOptions = {}): World {
  const seed = options.seed ?? 'ce-toolkit';
  const size = options.size ?? 'demo';
  const now = options.now ?? Math.floor(Date.now() / DAY) * DAY;
  const copy = options.copy ?? 0;
  const random = new SeededRandom(`${seed}:${size}`);
  const iso = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const daysAgo = (min: number, max: number) =>
    iso(now - random.int(min * 24, max * 24) * 3_600_000 - random.int(0, 3599) * 1000);
  let nextId = copy * COPY_ID_SPAN + 1000;
  const id = (prefix = '') => `${prefix}${++nextId}`;
  // A copy draws the same random numbers as the world (so its data is the same) and marks its hex ids.
  const copyTag = (hex: string) => (copy ? `c${copy.toString(16).padStart(7, '0')}${hex.slice(8)}` : hex);
  const uuid = () => copyTag(`${random.hex(8)}-${random.hex(4)}-4${random.hex(3)}-a${random.hex(3)}-${random.hex(12)}`);

  const plan: WorldPlan =
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
    seed,
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
    webhooks: [],
    tags: [],
    endpointAgents: [],
    endpointTests: [],
    endpointDynamicTests: [],
    endpointLabels: [],
    auditEvents: [],
    tokens: [],
    incidents: [],
    testVersions: [],
  };

  const viewing = PERMISSIONS.filter((permission) => permission.label.startsWith('View'));
  const working = PERMISSIONS.filter((permission) => !permission.isManagementPermission);
  world.roles = [
    {
      roleId: '1',
      name: 'Organization Admin',
      isBuiltin: true,
      hasManagementPermissions: true,
      permissions: PERMISSIONS,
    },
    { roleId: '2', name: 'Account Admin', isBuiltin: true, hasManagementPermissions: true, permissions: PERMISSIONS },
    { roleId: '3', name: 'Regular User', isBuiltin: true, hasManagementPermissions: false, permissions: working },
    { roleId: '4', name: 'Read Only User', isBuiltin: true, hasManagementPermissions: false, permissions: viewing },
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
    const org: Organization = {
      orgId: String(copy * COPY_ID_SPAN + 9000 + orgIndex),
      name: orgPlan.name,
      slug: orgPlan.slug,
    };
    world.organizations.push(org);
    world.tokens.push({
      token: `sbx-org-admin-${org.slug}-${tokenSuffix(seed, `admin:${org.slug}`, copy)}`,
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

    const build: OrganizationBuild = {
      world,
      random,
      plan,
      size,
      now,
      id,
      uuid,
      copyTag,
      iso,
      daysAgo,
      org,
      orgIndex,
      emailDomain,
      orgUsers,
      cloudAgentIds,
    };
    for (const group of groups) buildGroup(group, build);
  });

  addEndpointSelection(world, now, () => id());
  addDashboardReferences(world);
  // The large world keeps its round sizes (100 groups, 10,000 tests, 3,000 rules) for the benchmarks.
  if (size === 'demo') {
    plantHealthCases(world, now, () => id());
    plantMigrationCases(world, () => id(), copyTag);
    plantMeasuredCases(world, now, () => id());
  }
  planBilling(world, now);
  world.alerts.sort((a, b) => b.startDate.localeCompare(a.startDate));
  world.auditEvents.sort((a, b) => b.date.localeCompare(a.date));

  const firstOrg = world.organizations[0];
  if (firstOrg) {
    world.tokens.push(
      {
        token: `sbx-read-only-${firstOrg.slug}-${tokenSuffix(seed, `read-only:${firstOrg.slug}`, copy)}`,
        orgId: firstOrg.orgId,
        kind: 'read-only',
        description: `Read-only user of ${firstOrg.name}: reads work, writes and admin endpoints answer 403`,
      },
      {
        token: `sbx-revoked-${firstOrg.slug}-${tokenSuffix(seed, `revoked:${firstOrg.slug}`, copy)}`,
        orgId: firstOrg.orgId,
        kind: 'revoked',
        description: 'A revoked token: every call answers 401',
      },
    );
  }
  return world;
}
