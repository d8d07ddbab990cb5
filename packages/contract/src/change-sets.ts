import { z } from 'zod';
import { jobsAheadSchema } from './job-line.js';

/**
 * A change set as the API shows it: every write a tool made (or will make) into a customer's account,
 * item by item, with its outcome. The bulk tools keep their own run shape (bulk.ts); newer tools share this.
 */
export const CHANGE_ITEM_STATUSES = ['pending', 'running', 'done', 'skipped', 'failed'] as const;

export const changeSetItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  phase: z.number().int(),
  action: z.string(),
  aid: z.string(),
  accountGroupName: z.string(),
  /** What the item is about (the rule's name in the target). */
  subject: z.string(),
  status: z.enum(CHANGE_ITEM_STATUSES),
  /** The id the platform gave (a created rule's) or the id the item acted on. */
  resultId: z.string().nullable(),
  note: z.string().nullable(),
  error: z.string().nullable(),
});
export type ChangeSetItem = z.infer<typeof changeSetItemSchema>;

export const changeSetTotalsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  done: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
});

export const changeSetSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  ahead: jobsAheadSchema,
  requestedBy: z.string(),
  organizationName: z.string(),
  error: z.string().nullable(),
  totals: changeSetTotalsSchema,
  items: z.array(changeSetItemSchema),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  undoOf: z.string().nullable(),
  undoneBy: z.string().nullable(),
  /**
   * Where the run's Webex message (its summary) stands, for a tool that sends one: waiting while Webex does not take
   * it (tried again), sent, or failed once the retries gave up (`error` says why). Null: no message.
   */
  message: z.object({ status: z.enum(['waiting', 'sent', 'failed']), error: z.string().nullable() }).nullable(),
});
export type ChangeSet = z.infer<typeof changeSetSchema>;

export const RESULTS_FORMATS = ['xlsx', 'csv'] as const;
export const resultsFormatQuerySchema = z.object({ format: z.enum(RESULTS_FORMATS).default('xlsx') });
