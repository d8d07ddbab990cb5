import { z } from 'zod';
import type { Capability } from './roles.js';
import type { UsageTool } from './usage.js';
import { jobsAheadSchema } from './job-line.js';

/** Every report kind (mission) the wizard can submit; the server has a generator for each. */
export const REPORT_KINDS = {
  'ahc-v6': { label: 'AHC v6', tool: 'health-check', capability: 'healthCheck', needsAccounts: true },
  'ahc-v7': { label: 'AHC v7', tool: 'health-check', capability: 'healthCheck', needsAccounts: true },
  'ahc-ie': {
    label: 'AHC-IE v7',
    tool: 'health-check',
    capability: 'ahcIe',
    needsAccounts: true,
  },
  'epa-config': {
    label: 'EPA Config Report',
    tool: 'config-epa',
    capability: 'reporting',
    needsAccounts: true,
  },
  'tests-config-v7': {
    label: 'CA & EA Tests Config Report v7',
    tool: 'config-ca-ea',
    capability: 'reporting',
    needsAccounts: true,
  },
  'config-spreadsheet': {
    label: 'Configuration Spreadsheet',
    tool: 'config-ca-ea',
    capability: 'reporting',
    needsAccounts: true,
  },
  'alerts-config': {
    label: 'Alerts Configuration Report',
    tool: 'alerts-report',
    capability: 'reporting',
    needsAccounts: true,
  },
  'closure-units': {
    label: 'AS Built Closure Document',
    tool: 'ps-closure',
    capability: 'reporting',
    needsAccounts: true,
  },
  'closure-endpoints': {
    label: 'Endpoints Closure Document',
    tool: 'ps-closure',
    capability: 'reporting',
    needsAccounts: true,
  },
  'tam-activity': {
    label: 'TAMs Activity Report',
    tool: 'tam-activity',
    capability: 'reporting',
    needsAccounts: false,
  },
  'maintenance-window': {
    label: 'Maintenance Window Report',
    tool: 'maintenance-window',
    capability: 'reporting',
    needsAccounts: false,
  },
  'dashboard-report': {
    label: 'Dashboard Report',
    tool: 'dashboard-report',
    capability: 'tools',
    needsAccounts: true,
  },
  'review-pack': {
    label: 'Review pack',
    tool: 'review-pack',
    capability: 'healthCheck',
    needsAccounts: true,
  },
} as const satisfies Record<
  string,
  /** `tool` is the usage tool its requests count under on the dashboard (`USAGE_TOOLS`). */
  { label: string; tool: UsageTool; capability: Capability; needsAccounts: boolean }
>;

export type ReportKind = keyof typeof REPORT_KINDS;
/** The spec's words (section 8) for a report request the server cannot take. */
export const REPORT_REQUEST_MESSAGES = {
  missionMissing: 'Mission not specified in payload',
  missionUnknown: (mission: string) => `Unrecognized mission: ${mission}`,
  noAccountGroups: 'No account groups selected',
} as const;

/** A report kind (the original calls' `Mission`), refused in the spec's words when missing or unknown. */
export const reportKindSchema = z.enum(Object.keys(REPORT_KINDS) as [ReportKind, ...ReportKind[]], {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? REPORT_REQUEST_MESSAGES.missionMissing
      : REPORT_REQUEST_MESSAGES.missionUnknown(String(issue.input).slice(0, 100)),
});

/** Success and failure toasts per mission (spec section 8). */
export const REPORT_TOASTS: Record<ReportKind, { success: string; failure: string }> = {
  'ahc-v6': { success: 'AHC v6 report submitted successfully', failure: 'Failed to submit AHC v6 report' },
  'ahc-v7': { success: 'AHC v7 report submitted successfully', failure: 'Failed to submit AHC v7 report' },
  'ahc-ie': { success: 'AHC-IE v7 report submitted successfully', failure: 'Failed to submit AHC-IE v7 report' },
  'epa-config': { success: 'EPA Config Report submitted successfully', failure: 'Failed to submit EPA Config Report' },
  'tests-config-v7': {
    success: 'CA & EA Tests Config Report v7 submitted successfully',
    failure: 'Failed to submit CA & EA Tests Config Report v7',
  },
  'config-spreadsheet': {
    success: 'Configuration Spreadsheet submitted successfully',
    failure: 'Failed to submit Configuration Spreadsheet',
  },
  'alerts-config': { success: 'Report Requested Successfully', failure: 'Error al enviar el reporte' },
  'closure-units': {
    success: 'AS Built Closure Document submitted successfully',
    failure: 'Failed to submit AS Built Closure Document',
  },
  'closure-endpoints': {
    success: 'Endpoints Closure Document submitted successfully',
    failure: 'Failed to submit Endpoints Closure Document',
  },
  'tam-activity': {
    success: 'TAMs Activity Report submitted successfully',
    failure: 'Failed to submit TAMs Activity Report',
  },
  'maintenance-window': {
    success: 'Maintenance Window Report requested successfully',
    failure: 'Failed to send Maintenance Window Report request',
  },
  'dashboard-report': {
    success: 'Dashboard Report submitted successfully',
    failure: 'Failed to submit Dashboard Report',
  },
  'review-pack': {
    success: 'Review pack requested: it is in My Reports when it is ready',
    failure: 'Failed to request the review pack',
  },
};

/**
 * Spec section 8: when the server finds the request incomplete (a 400), the wizard says data is missing,
 * in the words of the kind of output.
 */
export const missingDataMessage = (kind: ReportKind): string =>
  kind === 'dashboard-report'
    ? 'Missing data to generate the dashboard report'
    : kind === 'closure-units' || kind === 'closure-endpoints'
      ? 'Missing data to generate the document'
      : 'Missing data to generate the report';

export const AHC_TABLES = [
  'thousandeyes_plan_overview',
  'quotas',
  'deployment_summary',
  'users_roles',
  'alert_activity_summary',
] as const;
export const TAM_DAYS_RANGES = [7, 14, 21] as const;
export const AHC_IE_DAYS_RANGES = [7, 14, 20, 31] as const;

/** The platform token a user pastes: non-empty, no spaces, a sane length. */
export const platformTokenSchema = z
  .string()
  .trim()
  .min(1, 'OAuth token not provided')
  .max(4096, 'The token is too long')
  .regex(/^[\x21-\x7e]+$/, 'The token may contain no spaces or special characters');

export const accountGroupsRequestSchema = z.object({ token: platformTokenSchema });
export const reportAccountGroupSchema = z.object({
  aid: z.string(),
  accountGroupName: z.string(),
  organizationName: z.string(),
  organizationId: z.string(),
});
export type ReportAccountGroup = z.infer<typeof reportAccountGroupSchema>;
export const accountGroupsResponseSchema = z.object({ accountGroups: z.array(reportAccountGroupSchema) });

export const createReportInputSchema = z.object({
  kind: reportKindSchema,
  token: platformTokenSchema,
  organization: z.object({ id: z.string().min(1), name: z.string().min(1, 'Please select an organization') }),
  accountGroups: z.array(z.object({ aid: z.string().min(1), accountGroupName: z.string() })).max(10_000),
  options: z
    .object({
      daysRange: z.number().int().positive().optional(),
      tables: z.array(z.enum(AHC_TABLES)).optional(),
      /** TAM activity: the planner the spec's payload carries (an empty list until a planner is connected). */
      planner: z.array(z.unknown()).optional(),
      /** Closure documents: the optional details of the wizard's last step. */
      engagementName: z.string().optional(),
      customerContact: z.string().optional(),
      notes: z.string().optional(),
      /** The review pack's period, cut-off, key tests and narrative (checked by reviewPackOptionsSchema). */
      period: z.unknown().optional(),
      cutOff: z.unknown().optional(),
      keyTests: z.unknown().optional(),
      narrative: z.unknown().optional(),
    })
    .default({}),
});
export type CreateReportInput = z.infer<typeof createReportInputSchema>;

export const REPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const reportArtifactSchema = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type ReportArtifact = z.infer<typeof reportArtifactSchema>;

export const reportRequestSchema = z.object({
  id: z.string(),
  kind: reportKindSchema,
  requestedBy: z.string(),
  organizationName: z.string(),
  accountGroups: z.array(z.object({ aid: z.string(), accountGroupName: z.string() })),
  options: z.record(z.string(), z.unknown()),
  status: z.enum(REPORT_STATUSES),
  ahead: jobsAheadSchema,
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  error: z.string().nullable(),
  delivery: z.object({ status: z.enum(['pending', 'delivered', 'failed', 'skipped']), error: z.string().nullable() }),
  artifacts: z.array(reportArtifactSchema),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReportRequest = z.infer<typeof reportRequestSchema>;
export const reportListResponseSchema = z.object({ reports: z.array(reportRequestSchema) });
export const rerunReportInputSchema = z.object({ token: platformTokenSchema });

/** The TAM activity report's options: its days range, and the planner the spec's payload carries (empty). */
export const tamActivityOptionsSchema = z.object({
  daysRange: z
    .number()
    .int()
    .refine((value) => (TAM_DAYS_RANGES as readonly number[]).includes(value), {
      message: `The days range is one of ${TAM_DAYS_RANGES.join(', ')}`,
    })
    .default(7),
  planner: z.array(z.unknown()).max(0, 'The planner is not connected yet: send an empty list').default([]),
});
export type TamActivityOptions = z.infer<typeof tamActivityOptionsSchema>;

/** The closure documents' optional details, asked on the wizard's last step; they appear in the document. */
export const closureOptionsSchema = z.object({
  engagementName: z.string().trim().max(200, 'At most 200 characters').optional(),
  customerContact: z.string().trim().max(200, 'At most 200 characters').optional(),
  notes: z.string().trim().max(5000, 'At most 5,000 characters').optional(),
});
export type ClosureOptions = z.infer<typeof closureOptionsSchema>;
export const CLOSURE_KINDS = ['closure-units', 'closure-endpoints'] as const;
