import { z } from 'zod';

/**
 * The platform shapes the tools read, written from the field names of the published v7 document.
 * Objects are loose: the platform adds fields over time and a new field must not break a report.
 */
/** A link the platform's answers carry (`_links`). */
export const linkSchema = z.looseObject({ href: z.string() });
export const linksSchema = z.looseObject({
  self: linkSchema.optional(),
  next: linkSchema.optional(),
  previous: linkSchema.optional(),
});

export const accountGroupSchema = z.looseObject({
  aid: z.string(),
  accountGroupName: z.string(),
  isCurrentAccountGroup: z.boolean().optional(),
  isDefaultAccountGroup: z.boolean().optional(),
  organizationName: z.string().optional(),
  orgId: z.string().optional(),
});
export type AccountGroup = z.infer<typeof accountGroupSchema>;
export const accountGroupsResponseSchema = z.looseObject({ accountGroups: z.array(accountGroupSchema) });

export const roleSchema = z.looseObject({
  roleId: z.string(),
  name: z.string(),
  isBuiltin: z.boolean().optional(),
  hasManagementPermissions: z.boolean().optional(),
});
export type PlatformRole = z.infer<typeof roleSchema>;

/** A role with what it lets its users do (`GET /roles/{id}`): each permission by its label ("Edit alert rules"). */
export const roleDetailSchema = roleSchema.extend({
  permissions: z
    .array(
      z.looseObject({
        permissionId: z.string().optional(),
        label: z.string(),
        permission: z.string().optional(),
        isManagementPermission: z.boolean().optional(),
      }),
    )
    .default([]),
});
export type PlatformRoleDetail = z.infer<typeof roleDetailSchema>;

export const userSchema = z.looseObject({
  uid: z.string(),
  name: z.string().optional(),
  email: z.string(),
  dateRegistered: z.string().optional(),
  lastLogin: z.string().optional(),
  loginAccountGroup: z.looseObject({ aid: z.string(), accountGroupName: z.string().optional() }).optional(),
  /** The user's roles in the account group, on `GET /account-groups/{id}?expand=user`. */
  roles: z.array(roleSchema).optional(),
  accountGroupRoles: z
    .array(z.looseObject({ accountGroup: z.looseObject({ aid: z.string() }), roles: z.array(roleSchema) }))
    .optional(),
});
export type PlatformUser = z.infer<typeof userSchema>;

export const PLATFORM_TEST_TYPES = [
  'http-server',
  'page-load',
  'dns-server',
  'dns-trace',
  'agent-to-server',
  'bgp',
] as const;
export type PlatformTestType = (typeof PLATFORM_TEST_TYPES)[number];
/** Every type the API serves under `/tests/{type}` (the product creates the first six): the only ones a path may name. */
export const PLATFORM_API_TEST_TYPES = [
  ...PLATFORM_TEST_TYPES,
  'agent-to-agent',
  'dnssec',
  'web-transactions',
  'api',
  'ftp-server',
  'sip-server',
  'voice',
] as const;
export type PlatformApiTestType = (typeof PLATFORM_API_TEST_TYPES)[number];

export const testSchema = z.looseObject({
  testId: z.string(),
  testName: z.string(),
  type: z.string(),
  interval: z.number().optional(),
  enabled: z.boolean().optional(),
  alertsEnabled: z.boolean().optional(),
  description: z.string().optional(),
  createdDate: z.string().optional(),
  createdBy: z.string().optional(),
  modifiedDate: z.string().optional(),
  url: z.string().optional(),
  domain: z.string().optional(),
  server: z.string().optional(),
  port: z.number().optional(),
  prefix: z.string().optional(),
  agents: z.array(z.looseObject({ agentId: z.string(), agentName: z.string().optional() })).optional(),
  alertRules: z.array(z.looseObject({ ruleId: z.string() })).optional(),
});
export type PlatformTest = z.infer<typeof testSchema>;

/** The writable body of POST /tests/{type}; type-specific fields ride along. */
/** What a test creation (POST) or a full update (PUT) sends: the common fields and each type's own. */
export const testCreateBodySchema = z.looseObject({
  testName: z.string(),
  interval: z.number().optional(),
  enabled: z.boolean().optional(),
  alertsEnabled: z.boolean().optional(),
  description: z.string().optional(),
  agents: z.array(z.object({ agentId: z.string() })).optional(),
  alertRules: z.array(z.string()).optional(),
  url: z.string().optional(),
  domain: z.string().optional(),
  server: z.string().optional(),
  port: z.number().optional(),
  protocol: z.enum(['tcp', 'icmp', 'udp']).optional(),
  dnsServers: z.array(z.string()).optional(),
  prefix: z.string().optional(),
});
export type TestCreateBody = z.infer<typeof testCreateBodySchema>;

export const agentSchema = z.looseObject({
  agentId: z.string(),
  agentName: z.string(),
  agentType: z.string(),
  location: z.string().optional(),
  countryId: z.string().optional(),
  enabled: z.boolean().optional(),
  ipAddresses: z.array(z.string()).optional(),
  publicIpAddresses: z.array(z.string()).optional(),
  lastSeen: z.string().optional(),
  agentState: z.string().optional(),
  hostname: z.string().optional(),
  createdDate: z.string().optional(),
  accountGroups: z.array(z.looseObject({ aid: z.string(), accountGroupName: z.string().optional() })).optional(),
  // The document types an agent's test ids as integers; the toolkit handles every id as a string.
  testIds: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  /** Online enterprise agents: how busy the agent is, in percent. */
  utilization: z.number().optional(),
  /** What the platform says is wrong with the agent (`agent-version-outdated`, `clock-offset`, ...). */
  errorDetails: z.array(z.looseObject({ code: z.string().optional(), description: z.string().optional() })).optional(),
});
export type PlatformAgent = z.infer<typeof agentSchema>;

export const dashboardSchema = z.looseObject({
  dashboardId: z.string(),
  title: z.string(),
  description: z.string().optional(),
  aid: z.string().optional(),
  widgets: z
    .array(z.looseObject({ id: z.string().optional(), type: z.string(), title: z.string().optional() }))
    .optional(),
});
export type PlatformDashboard = z.infer<typeof dashboardSchema>;

export const tagSchema = z.looseObject({
  id: z.string(),
  key: z.string().optional(),
  value: z.string().optional(),
  objectType: z.string().optional(),
  assignments: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
});
export type PlatformTag = z.infer<typeof tagSchema>;

export const endpointAgentSchema = z.looseObject({
  id: z.string(),
  aid: z.string().optional(),
  name: z.string().optional(),
  computerName: z.string().optional(),
  platform: z.string().optional(),
  osVersion: z.string().optional(),
  version: z.string().optional(),
  status: z.string().optional(),
  lastSeen: z.string().optional(),
  licenseType: z.string().optional(),
});
export type EndpointAgent = z.infer<typeof endpointAgentSchema>;

export const endpointTestSchema = z.looseObject({
  testId: z.string(),
  testName: z.string(),
  type: z.string(),
  aid: z.string().optional(),
  interval: z.number().optional(),
  isEnabled: z.boolean().optional(),
  agentSelectorConfig: z.lazy(() => agentSelectorSchema).optional(),
});
export type EndpointTest = z.infer<typeof endpointTestSchema>;

/** Which endpoint agents run a test: all, specific agents, agents with labels, or with tags. */
export const agentSelectorSchema = z.looseObject({
  agentSelectorType: z.string(),
  maxMachines: z.number().optional(),
  agents: z.array(z.string()).optional(),
  endpointAgentLabels: z.array(z.string()).optional(),
  tagIds: z.array(z.string()).optional(),
});
export type AgentSelector = z.infer<typeof agentSelectorSchema>;

export const endpointDynamicTestSchema = z.looseObject({
  testId: z.string(),
  testName: z.string(),
  application: z.string().optional(),
  interval: z.number().optional(),
  isEnabled: z.boolean().optional(),
  agentSelectorConfig: agentSelectorSchema.optional(),
});
export type EndpointDynamicTest = z.infer<typeof endpointDynamicTestSchema>;

export const endpointLabelSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  color: z.string().optional(),
  matchType: z.string().optional(),
  filters: z
    .array(z.looseObject({ key: z.string(), values: z.array(z.string()), mode: z.string().optional() }))
    .optional(),
});
export type EndpointLabel = z.infer<typeof endpointLabelSchema>;

export const auditEventSchema = z.looseObject({
  aid: z.string().optional(),
  accountGroupName: z.string().optional(),
  date: z.string(),
  event: z.string(),
  ipAddress: z.string().optional(),
  uid: z.string().optional(),
  user: z.string().optional(),
  resources: z.array(z.looseObject({ type: z.string().optional(), name: z.string().optional() })).optional(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const usageSchema = z.looseObject({
  usage: z.looseObject({
    quota: z
      .looseObject({
        monthStart: z.string().optional(),
        monthEnd: z.string().optional(),
        cloudUnitsIncluded: z.number().optional(),
        enterpriseAgentsIncluded: z.number().optional(),
        endpointAgentsIncluded: z.number().optional(),
      })
      .optional(),
    cloudUnitsUsed: z.number().optional(),
    cloudUnitsProjected: z.number().optional(),
    cloudUnitsNextBillingPeriod: z.number().optional(),
    enterpriseUnitsUsed: z.number().optional(),
    enterpriseUnitsProjected: z.number().optional(),
    endpointAgentsUsed: z.number().optional(),
    enterpriseAgentsUsed: z.number().optional(),
    tests: z.array(z.looseObject({})).optional(),
  }),
});
export type PlatformUsage = z.infer<typeof usageSchema>;

export const quotasSchema = z.looseObject({
  quotas: z.array(
    z.looseObject({
      organizationQuota: z.looseObject({}).optional(),
      accountGroupQuotas: z.array(z.looseObject({})).optional(),
    }),
  ),
});
export type PlatformQuotas = z.infer<typeof quotasSchema>;
