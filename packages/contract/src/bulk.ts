import { z } from 'zod';
import { DEFAULT_PORT, DEFAULT_TEST_INTERVAL, TEST_INTERVALS, TEST_TYPES, type TestType } from './constants.js';
import { BULK_MESSAGES } from './bulk-messages.js';
import { platformTokenSchema } from './reports.js';
import { jobsAheadSchema } from './job-line.js';

/** The agent wizard asks for at least this many characters (spec section 9). */
export const AGENT_WIZARD_TOKEN_MIN = 10;
/** Typed by the user before agents are deleted. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';
export const BULK_TEMPLATE_LIMIT = 50;
export const BULK_GROUP_LIMIT = 500;
/** Most operations one run may carry (templates x groups, agents, invitations...). */
export const BULK_ITEM_LIMIT = 5_000;

export const testTypeSchema = z.enum(TEST_TYPES);
const INTERVAL_SECONDS = TEST_INTERVALS.map((interval) => interval.seconds) as number[];

/**
 * One card of step 3. Agents are chosen by name, so one template applies to every selected account
 * group: cloud agents carry the same name everywhere, enterprise agents are found where they exist.
 */
export const testTemplateSchema = z.object({
  testName: z.string().trim().max(255, 'The test name is too long').default(''),
  testType: testTypeSchema.default('http-server'),
  interval: z.number().int().default(DEFAULT_TEST_INTERVAL),
  url: z.string().trim().max(2048).default(''),
  domain: z.string().trim().max(255).default(''),
  port: z.number().int().default(DEFAULT_PORT),
  /** dns-server only: the servers to query (the v7 API requires at least one). */
  dnsServers: z.string().trim().max(1024).default(''),
  /** bgp only: the prefix to monitor (the v7 API requires it). */
  prefix: z.string().trim().max(64).default(''),
  agentNames: z.array(z.string().max(255)).max(1000).default([]),
  alertsEnabled: z.boolean().default(true),
  description: z.string().max(4000).default(''),
});
export type TestTemplate = z.infer<typeof testTemplateSchema>;
export type TemplateField = keyof TestTemplate;

export const TEMPLATE_FIELD_MESSAGES = {
  testName: 'Test name is required',
  interval: 'Choose an interval between 1 minute and 1 hour',
  url: 'URL must start with http:// or https://',
  domainRequired: 'Domain is required',
  domainInvalid: 'Enter a domain such as www.example.com',
  port: 'Port must be between 1 and 65535',
  dnsServers: 'Enter at least one DNS server',
  prefix: 'Enter a prefix such as 203.0.113.0/24',
  agentNames: 'Select at least one agent',
} as const;

const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?(\s+[A-Z]+)?$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const PREFIX =
  /^((25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/([0-9]|[12]\d|3[0-2])|[0-9a-f:]+:[0-9a-f:]*\/\d{1,3})$/i;

export const needsUrl = (type: TestType) => type === 'http-server' || type === 'page-load';
export const needsDomain = (type: TestType) =>
  type === 'dns-server' || type === 'dns-trace' || type === 'agent-to-server';
export const needsAgents = (type: TestType) => type !== 'bgp';

/** The errors of one template, by field (empty when the card is valid). Shared by the form and the server. */
export function templateErrors(template: TestTemplate): Partial<Record<TemplateField, string>> {
  const errors: Partial<Record<TemplateField, string>> = {};
  const type = template.testType;
  if (!template.testName.trim()) errors.testName = TEMPLATE_FIELD_MESSAGES.testName;
  if (type !== 'bgp' && !INTERVAL_SECONDS.includes(template.interval))
    errors.interval = TEMPLATE_FIELD_MESSAGES.interval;
  if (needsUrl(type) && !/^https?:\/\/\S+$/i.test(template.url.trim())) errors.url = TEMPLATE_FIELD_MESSAGES.url;
  if (needsDomain(type)) {
    const domain = template.domain.trim();
    if (!domain) errors.domain = TEMPLATE_FIELD_MESSAGES.domainRequired;
    else if (!DOMAIN.test(domain) && !IPV4.test(domain)) errors.domain = TEMPLATE_FIELD_MESSAGES.domainInvalid;
  }
  if (type === 'agent-to-server' && !(Number.isInteger(template.port) && template.port >= 1 && template.port <= 65535))
    errors.port = TEMPLATE_FIELD_MESSAGES.port;
  if (type === 'dns-server' && dnsServerList(template.dnsServers).length === 0)
    errors.dnsServers = TEMPLATE_FIELD_MESSAGES.dnsServers;
  if (type === 'bgp' && !PREFIX.test(template.prefix.trim())) errors.prefix = TEMPLATE_FIELD_MESSAGES.prefix;
  if (needsAgents(type) && template.agentNames.length === 0) errors.agentNames = TEMPLATE_FIELD_MESSAGES.agentNames;
  return errors;
}

export const dnsServerList = (value: string) =>
  value
    .split(/[\s,;]+/)
    .map((server) => server.trim())
    .filter(Boolean);

export const newTestTemplate = (): TestTemplate => testTemplateSchema.parse({});

/** The file 'Export templates' writes and 'Import templates' reads. */
export const TEMPLATE_FILE_FORMAT = 'ce-toolkit/bulk-test-templates';
export const templateFileSchema = z.object({
  format: z.literal(TEMPLATE_FILE_FORMAT, { error: 'This is not a CE Toolkit templates file' }),
  version: z.literal(1, { error: 'This templates file comes from a newer version' }),
  templates: z
    .array(testTemplateSchema)
    .min(1, BULK_MESSAGES.templateRequired)
    .max(BULK_TEMPLATE_LIMIT, `At most ${BULK_TEMPLATE_LIMIT} templates`),
});
export type TemplateFile = z.infer<typeof templateFileSchema>;

function addTemplateIssues(template: TestTemplate, context: z.RefinementCtx) {
  for (const [field, message] of Object.entries(templateErrors(template)))
    context.addIssue({ code: 'custom', path: [field], message });
}
const validTemplateSchema = testTemplateSchema.superRefine(addTemplateIssues);

/**
 * Step 3 of the bulk test creator as the form holds it: every card checked by templateErrors, the
 * same rules the server applies (an emptied port is NaN until fixed, and says so in words).
 */
export const bulkTestsFormSchema = z.object({
  templates: z
    .array(testTemplateSchema.extend({ port: z.number().or(z.nan()) }).superRefine(addTemplateIssues))
    .min(1, BULK_MESSAGES.templateRequired)
    .max(BULK_TEMPLATE_LIMIT, `At most ${BULK_TEMPLATE_LIMIT} templates in one session`),
});
/** The form's values as held while typing (every field has its default, so each may be absent in a file). */
export type BulkTestsFormValues = z.input<typeof bulkTestsFormSchema>;
export type BulkTestsFormOutput = z.output<typeof bulkTestsFormSchema>;

/** Step 1 of the bulk tools: the token as typed, refused in the spec's words when missing or too short. */
export const bulkTokenSchema = (minLength = 1) =>
  z
    .string()
    .trim()
    .min(1, BULK_MESSAGES.tokenRequired)
    .min(minLength, BULK_MESSAGES.agentTokenTooShort)
    .pipe(platformTokenSchema);

export const bulkAccountGroupSchema = z.object({
  aid: z.string().min(1).max(64),
  accountGroupName: z.string().max(255),
});
export type BulkAccountGroup = z.infer<typeof bulkAccountGroupSchema>;

const organizationSchema = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(255) });
const groupsSchema = z
  .array(bulkAccountGroupSchema)
  .min(1, BULK_MESSAGES.groupsRequired)
  .max(BULK_GROUP_LIMIT, `At most ${BULK_GROUP_LIMIT} account groups`);

// ---------------------------------------------------------------------------------------------
// Requests that read the platform (nothing is stored)

export const bulkAgentsRequestSchema = z.object({ token: platformTokenSchema, accountGroups: groupsSchema });
export const bulkAgentSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  location: z.string(),
  countryId: z.string(),
  agentType: z.string(),
  enabled: z.boolean(),
});
export type BulkAgent = z.infer<typeof bulkAgentSchema>;
export const bulkAgentsResponseSchema = z.object({
  groups: z.array(
    z.object({
      aid: z.string(),
      accountGroupName: z.string(),
      agents: z.array(bulkAgentSchema),
      error: z.string().nullable(),
    }),
  ),
});
export type BulkAgentsResponse = z.infer<typeof bulkAgentsResponseSchema>;

export const bulkTestsPlanRequestSchema = z.object({
  token: platformTokenSchema,
  accountGroups: groupsSchema,
  templates: z.array(validTemplateSchema).min(1, BULK_MESSAGES.templateRequired).max(BULK_TEMPLATE_LIMIT),
});
export type BulkTestsPlanRequest = z.input<typeof bulkTestsPlanRequestSchema>;

/** What one template will do in one account group. */
export const planCellSchema = z.object({
  templateIndex: z.number().int(),
  aid: z.string(),
  accountGroupName: z.string(),
  testName: z.string(),
  action: z.enum(['create', 'exists', 'blocked']),
  /** The test of the same name already in the group (a conflict). */
  existingTestId: z.string().nullable(),
  agents: z.array(z.object({ agentId: z.string(), agentName: z.string() })),
  missingAgents: z.array(z.string()),
  reason: z.string().nullable(),
});
export type PlanCell = z.infer<typeof planCellSchema>;
export const bulkTestsPlanSchema = z.object({ cells: z.array(planCellSchema) });
export type BulkTestsPlan = z.infer<typeof bulkTestsPlanSchema>;

export const bulkTestsListRequestSchema = bulkAgentsRequestSchema;
export const bulkTestsListResponseSchema = z.object({
  groups: z.array(
    z.object({
      aid: z.string(),
      accountGroupName: z.string(),
      tests: z.array(z.object({ testId: z.string(), testName: z.string(), type: z.string() })),
      error: z.string().nullable(),
    }),
  ),
});
export type BulkTestsList = z.infer<typeof bulkTestsListResponseSchema>;

export const bulkRolesRequestSchema = z.object({ token: platformTokenSchema });
export const bulkRolesResponseSchema = z.object({
  roles: z.array(z.object({ roleId: z.string(), name: z.string() })),
});

export const duplicateScanRequestSchema = z.object({
  token: z.string().trim().min(AGENT_WIZARD_TOKEN_MIN, BULK_MESSAGES.agentTokenTooShort).pipe(platformTokenSchema),
  accountGroups: groupsSchema,
});
export const duplicateAgentSchema = z.object({
  agentId: z.string(),
  agentName: z.string(),
  accountGroupName: z.string(),
  accountGroupId: z.string(),
  ipAddress: z.string(),
  location: z.string(),
  isDuplicate: z.boolean(),
  duplicateReason: z.string(),
  lastActivity: z.string().nullable(),
});
export type DuplicateAgent = z.infer<typeof duplicateAgentSchema>;
export const duplicateGroupSchema = z.object({
  key: z.string(),
  reason: z.string(),
  agents: z.array(duplicateAgentSchema),
});
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;
export const duplicateScanResponseSchema = z.object({
  scannedAgents: z.number().int(),
  groups: z.array(duplicateGroupSchema),
  errors: z.array(z.object({ aid: z.string(), accountGroupName: z.string(), error: z.string() })),
});
export type DuplicateScan = z.infer<typeof duplicateScanResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Runs: server jobs with one item per platform operation

export const BULK_RUN_KINDS = ['tests', 'undo-tests', 'agents', 'labels', 'users'] as const;
export type BulkRunKind = (typeof BULK_RUN_KINDS)[number];
/** What each kind of run is called, in run lists and notifications. */
export const BULK_RUN_LABELS: Record<BulkRunKind, string> = {
  tests: 'Create tests',
  'undo-tests': 'Undo',
  agents: 'Delete agents',
  labels: 'Label tests',
  users: 'Invite users',
};

const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/;

/** An agent chosen for deletion, with the group it was found in. */
export const agentToDeleteSchema = z.object({
  agentId: z.string().min(1).max(64),
  agentName: z.string().max(255),
  ...bulkAccountGroupSchema.shape,
});
export const bulkLabelSchema = z.object({
  key: z.string().trim().min(1, 'The label needs a key').max(100),
  value: z.string().trim().min(1, 'The label needs a value').max(100),
  color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i, 'Pick a colour')
    .default('#1f77b4'),
});
/** The labels tool's form: the label, and the tests it goes on (keys `<aid>:<testId>`). */
export const labelsFormSchema = bulkLabelSchema.extend({
  color: bulkLabelSchema.shape.color.unwrap(),
  tests: z.array(z.string()).min(1, 'Select at least one test'),
});
export const labelTargetSchema = z.object({
  ...bulkAccountGroupSchema.shape,
  testIds: z.array(z.string().min(1).max(64)).min(1).max(5000),
});
/** Invitees' addresses: one address, no list separators or angle brackets. */
export const INVITEE_EMAIL = EMAIL;
export const inviteeSchema = z.object({
  email: z.string().trim().toLowerCase().regex(EMAIL, 'Not an email address'),
  name: z.string().trim().max(255).default(''),
});
export type Invitee = z.infer<typeof inviteeSchema>;

/** What a users run invites: one role, and the people (the users tool's form checks the same). */
export const bulkInvitationFields = {
  roleId: z.string().min(1, 'Choose a role').max(64),
  invitees: z
    .array(inviteeSchema)
    .min(1, 'Add at least one email address')
    .max(1000, 'At most 1,000 invitations at a time'),
};

/** Deleting agents cannot be undone: the user types the word first. */
export const deleteConfirmationSchema = z.literal(DELETE_CONFIRMATION_WORD, {
  error: `Type ${DELETE_CONFIRMATION_WORD} to confirm`,
});
/** The duplicate-agents review: the agents marked (by id) and the typed confirmation. */
export const deleteAgentsFormSchema = z.object({
  agentIds: z.array(z.string()).min(1, BULK_MESSAGES.agentsToDeleteRequired),
  confirmation: z.string().pipe(deleteConfirmationSchema),
});
export type DeleteAgentsFormValues = z.input<typeof deleteAgentsFormSchema>;
export type DeleteAgentsFormOutput = z.output<typeof deleteAgentsFormSchema>;

export const conflictChoiceSchema = z.enum(['skip', 'rename']);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

/** What a run does with conflicts, from either form of the choice (skipping by default). */
export function conflictChoice(request: { onConflict?: ConflictChoice; skipExisting?: boolean }): ConflictChoice {
  return request.onConflict ?? (request.skipExisting === false ? 'rename' : 'skip');
}

export const createBulkRunSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('tests'),
    token: platformTokenSchema,
    organization: organizationSchema,
    accountGroups: groupsSchema,
    templates: z.array(validTemplateSchema).min(1, BULK_MESSAGES.templateRequired).max(BULK_TEMPLATE_LIMIT),
    /**
     * A template whose name a test of the group already has (a conflict, shown in the plan): skipped, or
     * created under the name with a suffix (" (2)"). A run never sends a test whose name is taken.
     */
    onConflict: conflictChoiceSchema.optional(),
    /** The earlier form of the choice: false means 'rename'. */
    skipExisting: z.boolean().default(true),
  }),
  z.object({
    kind: z.literal('agents'),
    token: z.string().trim().min(AGENT_WIZARD_TOKEN_MIN, BULK_MESSAGES.agentTokenTooShort).pipe(platformTokenSchema),
    organization: organizationSchema,
    agents: z.array(agentToDeleteSchema).min(1, BULK_MESSAGES.agentsToDeleteRequired).max(BULK_ITEM_LIMIT),
    confirmation: deleteConfirmationSchema,
  }),
  z.object({
    kind: z.literal('labels'),
    token: platformTokenSchema,
    organization: organizationSchema,
    tag: bulkLabelSchema,
    targets: z.array(labelTargetSchema).min(1, 'Select at least one test').max(BULK_GROUP_LIMIT),
  }),
  z.object({
    kind: z.literal('users'),
    token: platformTokenSchema,
    organization: organizationSchema,
    accountGroups: groupsSchema,
    ...bulkInvitationFields,
  }),
]);
export type CreateBulkRunInput = z.input<typeof createBulkRunSchema>;
export type CreateBulkRun = z.output<typeof createBulkRunSchema>;

export const undoBulkRunSchema = z.object({ token: platformTokenSchema });

export const BULK_ITEM_STATUSES = ['pending', 'running', 'done', 'skipped', 'failed'] as const;
export type BulkItemStatus = (typeof BULK_ITEM_STATUSES)[number];

export const bulkRunItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  action: z.enum(['create-test', 'delete-test', 'delete-agent', 'label-tests', 'invite-user']),
  templateIndex: z.number().int().nullable(),
  aid: z.string(),
  accountGroupName: z.string(),
  /** What the item is about: the test name, the agent name, the email address, the label. */
  subject: z.string(),
  status: z.enum(BULK_ITEM_STATUSES),
  /** The id the platform gave (or had): test id, agent id, tag id, user id. */
  resultId: z.string().nullable(),
  note: z.string().nullable(),
  error: z.string().nullable(),
});
export type BulkRunItem = z.infer<typeof bulkRunItemSchema>;

export const BULK_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const bulkRunSchema = z.object({
  id: z.string(),
  kind: z.enum(BULK_RUN_KINDS),
  status: z.enum(BULK_RUN_STATUSES),
  ahead: jobsAheadSchema,
  requestedBy: z.string(),
  organizationName: z.string(),
  accountGroups: z.array(bulkAccountGroupSchema),
  templates: z.array(testTemplateSchema),
  error: z.string().nullable(),
  totals: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    done: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
  }),
  items: z.array(bulkRunItemSchema),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /**
   * Milliseconds from the first operation to the last: the server's working time. The results panel's
   * "Execution time" is what the user waited instead, from their click to the results (web: run-waits.ts).
   */
  executionTimeMs: z.number().int().nullable(),
  undoOf: z.string().nullable(),
  undoneBy: z.string().nullable(),
});
export type BulkRun = z.infer<typeof bulkRunSchema>;
export const bulkRunListSchema = z.object({
  runs: z.array(bulkRunSchema.omit({ items: true, templates: true })),
});
export type BulkRunSummary = z.infer<typeof bulkRunListSchema>['runs'][number];

export const isFinished = (run: Pick<BulkRun, 'status'>) => run.status === 'done' || run.status === 'failed';

/** The toast a finished test run ends with (spec section 4), counting the tests it tried to create. */
export function testRunToast(run: Pick<BulkRun, 'totals'>): {
  type: 'success' | 'warning' | 'error' | 'info';
  title?: string;
  message: string;
} {
  const attempted = run.totals.done + run.totals.failed;
  if (attempted === 0) return { type: 'info', message: 'Nothing to create: every test already exists' };
  if (run.totals.failed === 0) return { type: 'success', message: BULK_MESSAGES.allCreated(attempted) };
  if (run.totals.done > 0)
    return {
      type: 'warning',
      title: BULK_MESSAGES.someCreatedTitle,
      message: BULK_MESSAGES.someCreated(run.totals.done, attempted),
    };
  return { type: 'error', message: BULK_MESSAGES.noneCreated };
}
