import { z } from 'zod';

/** The time tracker's words (spec sections 5 and 8). */
export const TRACKER_MESSAGES = {
  fileAndDateRequired: 'Please select both a file and a date before uploading.',
  wrongType: 'Please select a valid Excel file (.xlsx, .xls) or CSV file.',
  tooLarge: 'File size must be less than 10MB.',
  uploadInProgress: 'An upload is already in progress. Please wait...',
  noRowSelected: 'Please select at least one row',
  emptyFile: 'File is empty or not valid. Please check the rows and try again.',
  noValidData: 'File contains no valid data.',
  requestInProgress: 'A request is already in progress. Please wait...',
  uploadFailed: (message?: string) => `Upload failed: ${message || 'Unknown error'}`,
  uploadFailedToast: 'File upload failed',
  uploadUnexpected: 'Unexpected error during upload',
  created: (n: number, crm: string) => `${n} Tasks created successfully in ${crm}`,
  partial: (n: number, failures: string) => `Some tasks created (${n}), but failed to create others: ${failures}`,
  failed: (failures: string) => `Failed to create tasks: ${failures}`,
  processed: 'Tasks processed successfully!',
  requestFailed: (message: string) => `Failed to create tasks: ${message}`,
  /** Said when the file is read, before any task is asked for (the CRM's status, by SOQL). */
  closedEngagement: (engagement: string) =>
    `Engagement ${engagement} is closed in Salesforce: its rows will not become tasks. Log them against an open engagement.`,
  /** A row of a closed engagement, which the toolkit does not send. */
  closedEngagementRow: (engagement: string) => `Engagement ${engagement} is closed in Salesforce: no task was created`,
  /** The CRM's refusal of one task in its own words, without its error code. */
  crmRefused: (words: string) => `Salesforce refused the task: ${words}`,
  statusUnchecked:
    'Whether these engagements are open could not be checked in Salesforce: a closed one is said when its tasks are created.',
} as const;

/** The customer-relationship system the tasks go to, as messages name it. */
export const CRM_NAME = 'Salesforce';

export const TRACKER_LIMITS = {
  /** Files must be smaller than this (spec section 9). */
  fileBytes: 10 * 1024 * 1024,
  /** More rows than a week of anyone's hours; a larger file is refused, not half-read. */
  rows: 5_000,
  /** Longest text kept in a cell (Salesforce's Description holds 32,000). */
  cellChars: 32_000,
  weeks: 9,
  /** Task creation can take up to 3 minutes (spec section 9). */
  createTimeoutMs: 180_000,
  progressRotateMs: 30_000,
  closeAfterMs: 2_000,
  /** sObject Collections take at most 200 records a call. */
  crmBatch: 200,
} as const;

/** The progress panel's messages, in order, one every 30 seconds (spec section 4). */
export const TRACKER_PROGRESS_MESSAGES = [
  'Validating data',
  'Uploading file',
  'Creating tasks',
  'Processing engagement IDs',
  'taking a little more time',
  'Finalizing process',
] as const;

export const TEMPLATE_VERSION_LABEL = 'Latest Version 2025/MAR/26';
export const TEMPLATE_FILENAME = 'Task_Tracker_Template.xlsx';

/** The columns of a row, in the template's order. */
export const TRACKER_COLUMNS = [
  'Engagement_ID',
  'task_type',
  'due_date',
  'external_reference',
  'work_performed',
  'hours_spent',
] as const;

/** The template's drop-down of task types; any other text is kept as written. */
export const TASK_TYPES = [
  'General',
  'Meeting',
  'Call',
  'Email',
  'Configuration',
  'Troubleshooting',
  'Training',
  'Documentation',
  'Review',
  'Travel',
] as const;

export const UNKNOWN_ENGAGEMENT = 'Unknown';
export const DEFAULT_TASK_TYPE = 'General';

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The week-start select: nine Mondays, 8 weeks ago first and this week last (the default), as
 * year-month-day, counted in the user's time zone.
 */
export function weekStarts(today = new Date(), timeZone?: string): string[] {
  // The calendar day where the user is (the browser's zone unless one is given): early on a Monday east of
  // UTC, "this week" is already the new one there, while UTC still says Sunday.
  const local = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(today)
    .reduce<Record<string, string>>((parts, part) => ({ ...parts, [part.type]: part.value }), {});
  const day = new Date(Date.UTC(Number(local.year), Number(local.month) - 1, Number(local.day)));
  const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
  return Array.from({ length: TRACKER_LIMITS.weeks }, (_, index) =>
    isoDate(new Date(monday.getTime() - (TRACKER_LIMITS.weeks - 1 - index) * 7 * 86_400_000)),
  );
}

export const weekStartSchema = z.iso.date(TRACKER_MESSAGES.fileAndDateRequired);

/** One row of the spreadsheet as parsed (spec section 3), with where it came from and its stable key. */
export const trackerRowSchema = z.object({
  /** The row's number in the file (1 is the header). */
  row: z.number().int().positive(),
  Engagement_ID: z.string().max(255),
  task_type: z.string().max(255),
  due_date: z.iso.date(),
  external_reference: z.string().max(255),
  work_performed: z.string().max(TRACKER_LIMITS.cellChars),
  hours_spent: z
    .number()
    .min(0)
    .max(24 * 7),
});
export type TrackerRow = z.infer<typeof trackerRowSchema>;

/** The rows a sheet holds and what reading it warned of. */
export const parsedSheetSchema = z.object({
  data: z.array(trackerRowSchema),
  warnings: z.array(z.string()),
});
export type ParsedSheet = z.infer<typeof parsedSheetSchema>;

export const parseResponseSchema = parsedSheetSchema.extend({
  /** The file's engagements the CRM says are closed: their rows are not kept by default and get no task. */
  closedEngagements: z.array(z.string()),
});
export type ParseResponse = z.infer<typeof parseResponseSchema>;

export const createTasksRequestSchema = z.object({
  weekStart: z.iso.date(),
  fileName: z.string().max(255).default('hours'),
  tasks: z.array(trackerRowSchema).min(1, TRACKER_MESSAGES.noRowSelected).max(TRACKER_LIMITS.rows),
});
export type CreateTasksRequest = z.input<typeof createTasksRequestSchema>;

export const TASK_OUTCOMES = ['created', 'duplicate', 'failed'] as const;
export const taskResultSchema = z.object({
  row: z.number().int(),
  outcome: z.enum(TASK_OUTCOMES),
  id: z.string().nullable(),
  error: z.string().nullable(),
});
export type TaskResult = z.infer<typeof taskResultSchema>;

/** The spec's answer (counter of created tasks, failure messages) with each row's result. */
export const createTasksResponseSchema = z.object({
  counter: z.number().int().nonnegative(),
  messages: z.array(z.string()),
  results: z.array(taskResultSchema),
  /** The results file (the rows with Id and error, like a data loader's success and error files). */
  resultsFileId: z.string(),
});
export type CreateTasksResponse = z.infer<typeof createTasksResponseSchema>;

/** What the toast says about a creation's answer (spec section 8). */
export function creationOutcome(answer: { counter?: number; messages?: string[] }): {
  tone: 'success' | 'warning' | 'error';
  message: string;
  closes: boolean;
} {
  const messages = answer.messages ?? [];
  const counter = answer.counter ?? 0;
  if (messages.length === 0 && counter > 0)
    return { tone: 'success', message: TRACKER_MESSAGES.created(counter, CRM_NAME), closes: true };
  if (messages.length > 0 && counter > 0)
    return { tone: 'warning', message: TRACKER_MESSAGES.partial(counter, messages.join('; ')), closes: false };
  if (messages.length > 0)
    return { tone: 'error', message: TRACKER_MESSAGES.failed(messages.join('; ')), closes: false };
  return { tone: 'success', message: TRACKER_MESSAGES.processed, closes: false };
}

/** Only the part of the email before the at-sign identifies the submitter (spec section 1). */
export const submitterOf = (email: string) => email.split('@')[0] ?? email;
