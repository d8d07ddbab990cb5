import {
  apiTestType,
  type AlertRule,
  type EndpointAgent,
  type EndpointTest,
  type PlatformAgent,
  type PlatformDashboard,
  type PlatformQuotas,
  type PlatformSession,
  type PlatformTag,
  type PlatformTest,
  type PlatformUsage,
  type PlatformUser,
  type SuppressionWindow,
} from '@ce/platform-client';
import { mapPool } from '../../../../core/map-pool.js';
import {
  collect,
  dashboardsWithWidgets,
  READ_CONCURRENCY,
  readable,
  type Readable,
} from '../../../../report-kit/platform-reads.js';

/** The parts of a configuration a report may read; each is read once per account group. */
export type ConfigPart = 'tests' | 'agents' | 'rules' | 'tags' | 'windows' | 'dashboards' | 'users' | 'endpoint';

/** A test with its type's configuration (from `GET /tests/{type}`) and who it runs on, alerts and tags. */
export interface ConfiguredTest {
  test: PlatformTest;
  agents: { agentId: string; agentName: string; agentType: string; location: string }[];
  rules: { ruleId: string; ruleName: string }[];
  tags: string[];
}

export interface GroupConfig {
  aid: string;
  accountGroupName: string;
  tests: Readable<ConfiguredTest[]>;
  agents: Readable<PlatformAgent[]>;
  rules: Readable<AlertRule[]>;
  tags: Readable<PlatformTag[]>;
  windows: Readable<SuppressionWindow[]>;
  dashboards: Readable<PlatformDashboard[]>;
  users: Readable<PlatformUser[]>;
  endpointAgents: Readable<EndpointAgent[]>;
  endpointTests: Readable<EndpointTest[]>;
}

export interface OrganizationConfig {
  usage: Readable<PlatformUsage['usage']>;
  quotas: Readable<PlatformQuotas>;
}

const SKIPPED = { ok: false as const, reason: 'Not part of this report.' };
const skipped = <T>(): Readable<T> => SKIPPED;

/**
 * Reads one account group's configuration: each list once (the tests of each type present, agents with
 * their test ids, alert rules and then each rule's detail, which alone names its tests and notifications,
 * tags with their assignments, suppression windows with their tests, dashboards, users with roles, endpoint
 * agents and scheduled tests), all at once: the platform client paces them.
 */
export async function readGroupConfig(
  session: PlatformSession,
  group: { aid: string; accountGroupName: string },
  parts: ReadonlySet<ConfigPart>,
  signal?: AbortSignal,
): Promise<GroupConfig> {
  const { aid, accountGroupName } = group;
  const name = (what: string) => `${what} of ${accountGroupName}`;
  const wants = (part: ConfigPart) => parts.has(part);

  const agentsRead = wants('agents') || wants('tests');
  const rulesRead = wants('rules') || wants('tests');
  const tagsRead = wants('tags') || wants('tests');
  const [summaries, agents, rules, tags, windows, dashboards, users, endpointAgents, endpointTests] = await Promise.all(
    [
      wants('tests')
        ? readable(name('the tests'), 'View tests', async () => {
            const all = await session.tests.list(aid, signal);
            // Each type's own list carries its configuration (url, server, port, dnsServers, timeouts...).
            const types = [...new Set(all.map((test) => test.type))];
            const configured = await Promise.all(
              types.map((type) => session.tests.listByType(apiTestType(type), aid, signal)),
            );
            const byId = new Map(configured.flat().map((test) => [test.testId, test]));
            return all.map((test) => ({ ...test, ...byId.get(test.testId) }));
          })
        : skipped<PlatformTest[]>(),
      agentsRead
        ? readable(name('the agents'), 'View agents in account group', () =>
            session.agents.list({ aid, expand: ['test-ids'], signal }),
          )
        : skipped<PlatformAgent[]>(),
      rulesRead
        ? readable(name('the alert rules'), 'View alert rules', async () => {
            const list = await session.alertRules.list(aid, signal);
            return mapPool(list, READ_CONCURRENCY, (rule) => session.alertRules.get(rule.ruleId, aid, signal));
          })
        : skipped<AlertRule[]>(),
      tagsRead
        ? readable(name('the tags'), 'View tags', () => session.tags.list(aid, signal))
        : skipped<PlatformTag[]>(),
      wants('windows')
        ? readable(name('the alert suppression windows'), 'View alert suppression windows', async () => {
            const list = await session.alertSuppressionWindows.list(aid, signal);
            return mapPool(list, READ_CONCURRENCY, (window) =>
              session.alertSuppressionWindows.get(window.alertSuppressionWindowId, aid, signal),
            );
          })
        : skipped<SuppressionWindow[]>(),
      wants('dashboards')
        ? readable(name('the dashboards'), 'View dashboards', () => dashboardsWithWidgets(session, aid, signal))
        : skipped<PlatformDashboard[]>(),
      wants('users')
        ? readable(
            name('the users'),
            'View all users',
            async () => (await session.accountGroups.get(aid, ['user'], signal)).users ?? [],
          )
        : skipped<PlatformUser[]>(),
      wants('endpoint')
        ? readable(name('the endpoint agents'), 'View endpoint agents', () =>
            collect(session.endpointAgents.list(aid, signal)),
          )
        : skipped<EndpointAgent[]>(),
      wants('endpoint')
        ? readable(name('the endpoint tests'), 'View endpoint tests', () =>
            session.endpointTests.listScheduled(aid, signal),
          )
        : skipped<EndpointTest[]>(),
    ],
  );

  // An agent's test ids are kept to this group's tests (a cloud agent serves every group): memory stays
  // proportional to the group, not to the organization.
  if (agents.ok && summaries.ok) {
    const here = new Set(summaries.value.map((test) => test.testId));
    for (const agent of agents.value) if (agent.testIds) agent.testIds = agent.testIds.filter((id) => here.has(id));
  }
  const tests: Readable<ConfiguredTest[]> = summaries.ok
    ? {
        ok: true,
        value: (() => {
          const agentsOf = new Map<string, ConfiguredTest['agents']>();
          if (agents.ok)
            for (const agent of agents.value)
              for (const testId of agent.testIds ?? [])
                agentsOf.set(testId, [
                  ...(agentsOf.get(testId) ?? []),
                  {
                    agentId: agent.agentId,
                    agentName: agent.agentName,
                    agentType: agent.agentType,
                    location: agent.location ?? '',
                  },
                ]);
          const rulesOf = new Map<string, ConfiguredTest['rules']>();
          if (rules.ok)
            for (const rule of rules.value)
              for (const testId of rule.testIds)
                rulesOf.set(testId, [...(rulesOf.get(testId) ?? []), { ruleId: rule.ruleId, ruleName: rule.ruleName }]);
          const tagsOf = new Map<string, string[]>();
          if (tags.ok)
            for (const tag of tags.value)
              for (const assignment of tag.assignments ?? [])
                if (assignment.type === 'test')
                  tagsOf.set(assignment.id, [
                    ...(tagsOf.get(assignment.id) ?? []),
                    `${tag.key ?? ''}: ${tag.value ?? ''}`,
                  ]);
          return summaries.value.map((test) => ({
            test,
            agents: agentsOf.get(test.testId) ?? [],
            rules: rulesOf.get(test.testId) ?? [],
            tags: tagsOf.get(test.testId) ?? [],
          }));
        })(),
      }
    : summaries;

  return {
    aid,
    accountGroupName,
    tests,
    agents: wants('agents') ? agents : skipped(),
    rules: wants('rules') ? rules : skipped(),
    tags: wants('tags') ? tags : skipped(),
    windows,
    dashboards,
    users,
    endpointAgents,
    endpointTests,
  };
}

/** The organization-wide reads: usage (with each test's units) and quotas. */
export async function readOrganizationConfig(
  session: PlatformSession,
  signal?: AbortSignal,
): Promise<OrganizationConfig> {
  const [usage, quotas] = await Promise.all([
    readable('the usage', 'View Billing', async () => (await session.usage.get({ expand: ['test'], signal })).usage),
    readable('the quotas', 'Edit organization and account group quotas', () => session.usage.quotas(signal)),
  ]);
  return { usage, quotas };
}
