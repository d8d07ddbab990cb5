import type { AccountGroup, Agent, AlertRule, Dashboard, SuppressionWindow, Test, User } from './model.js';
import type { WorldLookup } from './world-lookup.js';

/** Turns sandbox records into the platform's answer shapes. `base` is the API root URL for links. */
export class Serializer {
  constructor(
    private readonly world: WorldLookup,
    private readonly base: string,
  ) {}

  link(path: string) {
    return { href: `${this.base}${path}` };
  }

  accountGroup(group: AccountGroup, currentAid: string) {
    return {
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      isCurrentAccountGroup: group.aid === currentAid,
      isDefaultAccountGroup: group.isDefault,
      organizationName: group.organizationName,
      orgId: group.orgId,
    };
  }

  /** `aid`: the account group the call is made in; an agent's tests are those of that group (cloud agents serve every group). */
  agent(agent: Agent, options: { expandTests?: boolean; aid?: string } = {}) {
    const base = {
      agentId: agent.agentId,
      agentName: agent.agentName,
      agentType: agent.agentType,
      location: agent.location,
      countryId: agent.countryId,
      enabled: agent.enabled,
      ipAddresses: agent.ipAddresses,
      publicIpAddresses: agent.publicIpAddresses,
      network: agent.network,
      verifySslCertificates: true,
      _links: { self: this.link(`/agents/${agent.agentId}`) },
    };
    // The document types an agent's testIds as integers, unlike every other id in v7.
    const testIds = options.expandTests
      ? {
          testIds: this.world
            .testsOfAgent(agent.agentId)
            .filter((test) => options.aid === undefined || test.aid === options.aid)
            .map((test) => Number(test.testId)),
        }
      : {};
    if (agent.agentType === 'cloud') return { ...base, ...testIds };
    return {
      ...base,
      hostname: agent.hostname,
      lastSeen: agent.lastSeen,
      agentState: agent.agentState,
      createdDate: agent.createdDate,
      accountGroups: agent.aids.map((aid) => {
        return { aid, accountGroupName: this.world.accountGroup(aid)?.accountGroupName ?? '' };
      }),
      // Online agents report how busy they are (from their id: the same every call); the platform's errors as planted.
      ...(agent.agentState === 'online' ? { utilization: 10 + (Number(agent.agentId) % 60) } : {}),
      ...(agent.errorDetails ? { errorDetails: agent.errorDetails } : {}),
      ...testIds,
    };
  }

  /** The summary of GET /tests and the unexpanded form of GET /tests/{type}. */
  testSummary(test: Test, withConfig: boolean) {
    return {
      testId: test.testId,
      testName: test.testName,
      type: test.type,
      interval: test.interval,
      enabled: test.enabled,
      alertsEnabled: test.alertsEnabled,
      description: test.description,
      createdBy: test.createdBy,
      createdDate: test.createdDate,
      modifiedBy: test.modifiedBy,
      modifiedDate: test.modifiedDate,
      liveShare: false,
      savedEvent: false,
      ...(withConfig ? test.config : {}),
      _links: {
        self: this.link(`/tests/${test.type}/${test.testId}`),
        testResults: [this.link(`/test-results/${test.testId}/${test.type === 'bgp' ? 'bgp' : 'network'}`)],
      },
    };
  }

  test(test: Test, expand: string[]) {
    const body: Record<string, unknown> = { ...this.testSummary(test, true) };
    if (expand.includes('agent') && test.type !== 'bgp') {
      body.agents = test.agentIds
        .map((agentId) => this.world.agent(agentId))
        .filter((agent): agent is Agent => agent !== undefined)
        .map((agent) => this.agent(agent));
    }
    if (expand.includes('alert-rule')) {
      body.alertRules = test.alertRuleIds
        .map((ruleId) => this.world.alertRule(ruleId))
        .filter((rule): rule is AlertRule => rule !== undefined)
        .map((rule) => this.alertRule(rule));
    }
    if (expand.includes('tag')) {
      body.tags = this.world.tagsOfTest(test.testId).map((tag) => ({ id: tag.id, key: tag.key, value: tag.value }));
    }
    return body;
  }

  alertRule(rule: AlertRule, detail = false) {
    const body: Record<string, unknown> = {
      ruleId: rule.ruleId,
      ruleName: rule.ruleName,
      expression: rule.expression,
      description: rule.description,
      notifyOnClear: rule.notifyOnClear,
      isDefault: rule.isDefault,
      alertType: rule.alertType,
      alertGroupType: rule.alertGroupType,
      minimumSources: rule.minimumSources,
      roundsViolatingMode: rule.roundsViolatingMode,
      roundsViolatingOutOf: rule.roundsViolatingOutOf,
      roundsViolatingRequired: rule.roundsViolatingRequired,
      severity: rule.severity,
      ...(rule.direction ? { direction: rule.direction } : {}),
      _links: { self: this.link(`/alerts/rules/${rule.ruleId}`) },
    };
    if (detail) {
      body.testIds = rule.testIds;
      body.tests = rule.testIds
        .map((testId) => this.world.test(testId))
        .filter((test): test is Test => test !== undefined)
        .map((test) => this.testSummary(test, false));
      const notifications: Record<string, unknown> = rule.notificationEmails.length
        ? { email: { recipients: rule.notificationEmails, message: '' } }
        : {};
      for (const { kind, ...integration } of rule.integrations ?? [])
        notifications[kind] = [...((notifications[kind] as unknown[] | undefined) ?? []), integration];
      body.notifications = notifications;
    }
    return body;
  }

  suppressionWindow(window: SuppressionWindow, now: number, expandTests: boolean) {
    const start = Date.parse(window.startDate);
    const ended = !window.repeat && start + window.duration * 1000 < now;
    const active = !ended && start <= now;
    const body: Record<string, unknown> = {
      alertSuppressionWindowId: window.alertSuppressionWindowId,
      name: window.name,
      isEnabled: window.isEnabled,
      status: ended ? 'ended' : active ? 'active' : 'inactive',
      startDate: window.startDate,
      duration: window.duration,
      ...(window.repeat ? { repeat: window.repeat } : {}),
      ...(window.endRepeat ? { endRepeat: window.endRepeat } : {}),
      _links: { self: this.link(`/alert-suppression-windows/${window.alertSuppressionWindowId}`) },
    };
    if (expandTests) {
      body.tests = window.testIds
        .map((testId) => this.world.test(testId))
        .filter((test): test is Test => test !== undefined)
        .map((test) => this.testSummary(test, false));
    }
    return body;
  }

  dashboard(dashboard: Dashboard) {
    return {
      dashboardId: dashboard.dashboardId,
      title: dashboard.title,
      description: dashboard.description,
      aid: dashboard.aid,
      isBuiltIn: dashboard.isBuiltIn,
      isPrivate: dashboard.isPrivate,
      isDefaultForUser: false,
      isDefaultForAccount: false,
      isGlobalOverride: false,
      isMigratedReport: false,
      dashboardCreatedBy: dashboard.createdBy,
      dashboardModifiedDate: dashboard.modifiedDate,
      defaultTimespan: { duration: 86_400 },
      refreshRate: 'off',
      ...(dashboard.layout ? { layout: dashboard.layout } : {}),
      widgets: dashboard.widgets.map((widget) => ({
        ...widget,
        isEmbedded: false,
        _links: { self: this.link(`/dashboards/${dashboard.dashboardId}/widgets/${widget.id}`) },
      })),
      _links: { self: this.link(`/dashboards/${dashboard.dashboardId}`) },
    };
  }

  user(user: User, detail: boolean) {
    const home = this.world.accountGroup(user.loginAid);
    const body: Record<string, unknown> = {
      uid: user.uid,
      name: user.name,
      email: user.email,
      dateRegistered: user.dateRegistered,
      ...(user.lastLogin ? { lastLogin: user.lastLogin } : {}),
      loginAccountGroup: { aid: user.loginAid, accountGroupName: home?.accountGroupName ?? '' },
      _links: { self: this.link(`/users/${user.uid}`) },
    };
    if (detail) {
      body.accountGroupRoles = Object.entries(user.roleIdsByAid).map(([aid, roleIds]) => ({
        accountGroup: {
          aid,
          accountGroupName: this.world.accountGroup(aid)?.accountGroupName ?? '',
        },
        roles: roleIds.map((roleId) => this.role(roleId)),
      }));
      body.allAccountGroupRoles = [];
    }
    return body;
  }

  role(roleId: string) {
    const role = this.world.role(roleId);
    return {
      roleId,
      name: role?.name ?? 'Unknown',
      isBuiltin: role?.isBuiltin ?? false,
      hasManagementPermissions: role?.hasManagementPermissions ?? false,
    };
  }
}
