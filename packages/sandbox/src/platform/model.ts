/** The sandbox's records, shaped as the platform's v7 answers (field names from the published document). */

export type TestType = 'http-server' | 'page-load' | 'dns-server' | 'dns-trace' | 'agent-to-server' | 'bgp';

export interface Organization {
  orgId: string;
  name: string;
  slug: string;
  /** The plan's cloud units a billing period, and whether the organization is on usage-based pricing. */
  billing?: { cloudUnitsIncluded: number; usagePricing: boolean; endpointAgentsIncluded?: number };
}

export interface AccountGroup {
  aid: string;
  accountGroupName: string;
  orgId: string;
  organizationName: string;
  isDefault: boolean;
  /** Test types the group's plan leaves out: the platform refuses them (no demo group sets it). */
  testTypesNotInPlan?: string[];
  /**
   * The group deleted its default agent-offline notification rule (a measured case): `/agents/notification-rules`
   * lists none.
   */
  noAgentOfflineRule?: boolean;
  /** Enterprise agents someone took out of the default agent-offline rule (a measured case): nobody hears of them. */
  agentsOutsideOfflineRule?: string[];
}

export interface Agent {
  agentId: string;
  agentName: string;
  agentType: 'cloud' | 'enterprise';
  location: string;
  countryId: string;
  enabled: boolean;
  ipAddresses: string[];
  publicIpAddresses: string[];
  network: string;
  /** Enterprise agents only. */
  hostname?: string;
  lastSeen?: string;
  agentState?: 'online' | 'offline' | 'disabled';
  createdDate?: string;
  /** Enterprise agents only: what the platform says is wrong with the agent (`agent-version-outdated`, ...). */
  errorDetails?: { code: string; description: string }[];
  /** Enterprise agents belong to account groups; cloud agents are everywhere. */
  aids: string[];
}

export interface Test {
  testId: string;
  aid: string;
  type: TestType;
  testName: string;
  interval: number;
  enabled: boolean;
  alertsEnabled: boolean;
  description: string;
  createdBy: string;
  createdDate: string;
  modifiedBy: string;
  modifiedDate: string;
  agentIds: string[];
  alertRuleIds: string[];
  /** Type-specific configuration (url, domain, server, port, prefix, dnsServers, protocol, ...). */
  config: Record<string, unknown>;
}

export interface AlertRule {
  ruleId: string;
  aid: string;
  ruleName: string;
  expression: string;
  direction?: 'to-target' | 'from-target' | 'bidirectional';
  notifyOnClear: boolean;
  isDefault: boolean;
  alertType: string;
  alertGroupType: 'cloud-enterprise' | 'bgp' | 'browser-session' | 'endpoint';
  minimumSources: number;
  roundsViolatingMode: 'exact' | 'any' | 'auto';
  roundsViolatingOutOf: number;
  roundsViolatingRequired: number;
  severity: 'info' | 'minor' | 'major' | 'critical';
  description: string;
  testIds: string[];
  notificationEmails: string[];
  /** Notifications through integrations (third-party, webhook, custom webhook), as the rule names them. */
  integrations?: RuleIntegration[];
}

export interface RuleIntegration {
  kind: 'thirdParty' | 'webhook' | 'customWebhook';
  integrationId: string;
  integrationType: string;
  integrationName?: string;
  target?: string;
}

export interface Alert {
  id: string;
  aid: string;
  alertType: string;
  alertRuleId: string;
  /** v7: `trigger` while active, `clear` once cleared. */
  alertState: 'trigger' | 'clear';
  alertSeverity: 'info' | 'minor' | 'major' | 'critical';
  startDate: string;
  endDate?: string;
  violationCount: number;
  duration: number;
  suppressed: boolean;
  testId: string;
  /** Derived by the sandbox from a rule's conditions over the simulated rounds (the planted measured cases). */
  derived?: boolean;
}

export interface User {
  uid: string;
  orgId: string;
  name: string;
  email: string;
  dateRegistered: string;
  lastLogin?: string;
  loginAid: string;
  roleIdsByAid: Record<string, string[]>;
}

/** A permission as a role's detail lists it (`GET /roles/{id}`). */
export interface Permission {
  permissionId: string;
  label: string;
  permission: string;
  isManagementPermission: boolean;
}

export interface Role {
  roleId: string;
  name: string;
  isBuiltin: boolean;
  hasManagementPermissions: boolean;
  /** What the role lets its users do (the sandbox refuses the read-only token's writes whatever its role says). */
  permissions: Permission[];
}

export interface Widget {
  id: string;
  type: string;
  title: string;
  visualMode: 'Full' | 'Half screen';
  dataSource: string;
  metricGroup?: string;
  metric?: string;
  /** What the widget shows, by kind: `{TEST: [testIds]}`. */
  filters?: Record<string, string[]>;
}

export interface Dashboard {
  dashboardId: string;
  aid: string;
  title: string;
  description: string;
  isBuiltIn: boolean;
  isPrivate: boolean;
  createdBy: string;
  modifiedDate: string;
  widgets: Widget[];
  /** Where each widget sits (v7 `layout`: `details.widgetPositioning[].id` names a widget). */
  layout?: { type: 'grid' | 'vertical'; details: { widgetPositioning: WidgetPosition[] } };
}

export interface WidgetPosition {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SuppressionWindow {
  alertSuppressionWindowId: string;
  aid: string;
  name: string;
  isEnabled: boolean;
  startDate: string;
  duration: number;
  repeat?: { type: 'day' | 'week' | 'month'; intervalLength: number; daysOfWeek?: string[] };
  endRepeat?: { type: 'never' | 'count' | 'date'; count?: number; date?: string };
  testIds: string[];
}

/** A webhook operation (Integrations API): what a rule's webhook notification names. Per account group. */
export interface Webhook {
  id: string;
  aid: string;
  name: string;
  enabled: boolean;
  category: 'alerts' | 'recommendations' | 'traffic-monitoring';
  status: 'pending' | 'connected' | 'failing' | 'unverified';
  path: string;
}

export interface Tag {
  id: string;
  aid: string;
  key: string;
  value: string;
  objectType: 'test' | 'dashboard' | 'endpoint-test';
  color: string;
  description: string;
  createDate: string;
  assignments: { id: string; type: string }[];
}

export interface EndpointAgent {
  id: string;
  aid: string;
  name: string;
  computerName: string;
  platform: 'windows' | 'mac';
  osVersion: string;
  version: string;
  status: 'enabled' | 'disabled';
  lastSeen: string;
  createdAt: string;
  licenseType: 'essentials' | 'advantage';
  publicIP: string;
}

/** Which endpoint agents run a test (v7 `agentSelectorConfig`, discriminated by `agentSelectorType`). */
export type AgentSelector =
  | { agentSelectorType: 'all-agents'; maxMachines: number }
  | { agentSelectorType: 'specific-agents'; agents: string[]; maxMachines: number }
  | { agentSelectorType: 'agent-labels'; endpointAgentLabels: string[]; maxMachines: number };

export interface EndpointTest {
  testId: string;
  aid: string;
  testName: string;
  type: 'agent-to-server' | 'http-server';
  interval: number;
  isEnabled: boolean;
  server?: string;
  url?: string;
  protocol: string;
  agentSelectorConfig?: AgentSelector;
}

export interface EndpointDynamicTest {
  testId: string;
  aid: string;
  testName: string;
  application: 'webex' | 'zoom' | 'microsoft-teams';
  interval: number;
  isEnabled: boolean;
  createdDate: string;
  agentSelectorConfig: AgentSelector;
}

/** An endpoint agent label: agents whose fields match its filters (all of them, or any, by matchType). */
export interface EndpointLabel {
  id: string;
  aid: string;
  name: string;
  color: string;
  matchType: 'and' | 'or';
  filters: { key: string; values: string[]; mode: 'in' | 'not-in' }[];
}

export interface AuditEvent {
  aid: string;
  date: string;
  event: string;
  ipAddress: string;
  uid: string;
  user: string;
  resources: { type: string; name: string }[];
}

export interface Token {
  token: string;
  orgId: string;
  kind: 'org-admin' | 'read-only' | 'revoked';
  description: string;
}

/**
 * Something that goes wrong in the simulated measurements (`simulation/`): the rounds of a test (from some of
 * its agents, or all), or of every test on an agent (a local problem), fail from `from` until `to` (still going
 * when absent). `flap`: only the first round of every `periodSeconds` fails. `event`: the platform's event
 * detection reports it too.
 */
export interface Incident {
  id: string;
  /** Whom it touches: a test (its agents, or some of them), or an agent (every test it runs). */
  testId?: string;
  agentIds?: string[];
  agentLocal?: boolean;
  from: number;
  to?: number;
  pattern: 'down' | 'flap';
  periodSeconds?: number;
  /** In words, as the results' error details say it ("Connection timed out"). */
  cause: string;
  event?: { type: 'target' | 'network' | 'agent-local'; severity: 'high' | 'medium' | 'low'; typeName: string };
}

/** A version of a test's settings kept by a write (`/tests/{testId}/history`, `versionId`). */
export interface TestVersion {
  versionId: string;
  testId: string;
  versionTimestamp: string;
  createdBy: string;
  snapshot: Test;
}
