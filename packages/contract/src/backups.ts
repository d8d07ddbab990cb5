import { z } from 'zod';
import { BULK_MESSAGES } from './bulk-messages.js';
import { platformTokenSchema } from './reports.js';
import { changeSetSchema } from './change-sets.js';
import { jobsAheadSchema } from './job-line.js';

/** What Backup & Restore says (the token messages are the spec's, shared with the other tools). */
export const BACKUP_MESSAGES = {
  tokenRequired: BULK_MESSAGES.tokenRequired,
  groupsRequired: BULK_MESSAGES.groupsRequired,
  notAnArchive: 'This file is not a backup archive.',
  againstRequired: 'Compare with the live account group (with a token) or with another backup',
  notFinished: 'This backup is not finished yet.',
} as const;

/** One request backs up at most this many account groups (one backup each). */
export const BACKUP_GROUP_LIMIT = 50;
/** The largest archive an upload may send. */
export const BACKUP_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

const organizationSchema = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(255) });

export const createBackupsSchema = z.object({
  token: platformTokenSchema,
  organization: organizationSchema,
  accountGroups: z
    .array(z.object({ aid: z.string().min(1).max(64) }))
    .min(1, BACKUP_MESSAGES.groupsRequired)
    .max(BACKUP_GROUP_LIMIT, `At most ${BACKUP_GROUP_LIMIT} account groups at once`),
});
export type CreateBackups = z.infer<typeof createBackupsSchema>;

export const backupSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  ahead: jobsAheadSchema,
  origin: z.enum(['live', 'upload']),
  organizationId: z.string(),
  organizationName: z.string(),
  aid: z.string(),
  accountGroupName: z.string(),
  requestedBy: z.string(),
  counts: z.record(z.string(), z.number().int()).nullable(),
  items: z.number().int().nullable(),
  size: z.number().int().nullable(),
  checksum: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

export const BACKUP_SORTS = ['createdAt', 'accountGroupName', 'organizationName', 'items', 'size'] as const;
export const backupListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  sort: z.enum(BACKUP_SORTS).default('createdAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export const backupListSchema = z.object({ backups: z.array(backupSchema) });

/** What a backup is compared with: the live account group (a token reads it) or another backup. */
export const driftRequestSchema = z
  .object({
    token: platformTokenSchema.optional(),
    backupId: z.uuid().optional(),
  })
  .refine((request) => Boolean(request.token) !== Boolean(request.backupId), {
    message: BACKUP_MESSAGES.againstRequired,
  });
export type DriftRequest = z.infer<typeof driftRequestSchema>;

export const DRIFT_CHANGES = ['added', 'removed', 'changed', 'renamed'] as const;
export const driftSchema = z.object({
  /** What the backup was compared with, in words ("Acme - Production, live" or a backup's date). */
  against: z.string(),
  changes: z.array(
    z.object({
      kind: z.string(),
      key: z.string(),
      name: z.string(),
      change: z.enum(DRIFT_CHANGES),
      /** A renamed item's name in the backup. */
      previousName: z.string().optional(),
      fields: z.array(z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
    }),
  ),
  counts: z.record(
    z.string(),
    z.object({
      added: z.number().int(),
      removed: z.number().int(),
      changed: z.number().int(),
      unchanged: z.number().int(),
    }),
  ),
});
export type Drift = z.infer<typeof driftSchema>;
export const driftExportQuerySchema = z.object({ format: z.enum(['xlsx', 'html']).default('xlsx') });

/** How an item of a backup or of a group is named in a restore request: `kind/key` ("test/http-server: Portal"). */
export const restoreItemRef = (item: { kind: string; key: string }) => `${item.kind}/${item.key}`;

export const restoreRequestSchema = z.object({
  token: platformTokenSchema,
  /** The group to restore into: the backup's own (default) or another of the token's organization. */
  aid: z.string().min(1).max(64).optional(),
  /** Another organization's group: its Org Admin token and the organization. */
  targetOrganization: z.object({ token: platformTokenSchema, organization: organizationSchema }).optional(),
  /** Backup items to put back. */
  items: z.array(z.string().max(1000)).max(20_000).default([]),
  /** The target's items to delete (added since the backup: "undo these changes"). */
  remove: z.array(z.string().max(1000)).max(20_000).default([]),
});
export type RestoreRequest = z.output<typeof restoreRequestSchema>;

export const restorePlanSchema = z.object({
  accountGroupName: z.string(),
  steps: z.array(
    z.object({
      kind: z.string(),
      key: z.string(),
      name: z.string(),
      /** The target item's name now, when the restore renames it back (the same item on the platform). */
      previousName: z.string().optional(),
      status: z.enum(['create', 'update', 'unchanged', 'delete', 'cannot']),
      phase: z.number().int(),
      differences: z.array(z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
      dropped: z.array(z.object({ kind: z.string(), name: z.string(), reason: z.string() })),
      reason: z.string().nullable(),
    }),
  ),
});
export type RestorePlan = z.infer<typeof restorePlanSchema>;

export const restoreRunSchema = changeSetSchema.extend({
  backupId: z.string(),
  accountGroupName: z.string(),
  targetOrganizationName: z.string().nullable(),
});
export type RestoreRun = z.infer<typeof restoreRunSchema>;
export const restoreUndoSchema = z.object({ token: platformTokenSchema, targetToken: platformTokenSchema.optional() });

/** A backup's items as its page lists them, to pick some to restore. */
export const backupItemsSchema = z.object({
  items: z.array(z.object({ kind: z.string(), key: z.string(), name: z.string(), masked: z.array(z.string()) })),
});
export type BackupItems = z.infer<typeof backupItemsSchema>;
