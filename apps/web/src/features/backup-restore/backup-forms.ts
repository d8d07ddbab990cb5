import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { BACKUP_MESSAGES, createBackupsSchema, restoreRequestSchema } from '@ce/contract';

/** Compared with the live group ('live', with the token) or with another backup (its id). */
export const LIVE = 'live';

/** The groups to back up (the token and organization come from the token step), over the contract's schema. */
export const backupFormSchema = z.object({
  accountGroups: createBackupsSchema.shape.accountGroups,
});
export type BackupForm = z.output<typeof backupFormSchema>;

/**
 * One backup's page, over the contract's schemas: what it is compared with, the changes of that comparison
 * and the backup's items picked to restore, and where to (the backup's group, another of the organization,
 * or a group of another organization with its own token).
 */
export const restoreFormSchema = z.object({
  against: z.string().min(1),
  /** Changes of the comparison picked (`kind/key`). */
  changes: restoreRequestSchema.shape.remove,
  /** Backup items picked (`kind/key`). */
  items: restoreRequestSchema.shape.items,
  elsewhere: z.boolean(),
  aid: z.string().min(1, BACKUP_MESSAGES.groupsRequired).max(64),
});
export type RestoreForm = z.output<typeof restoreFormSchema>;
export type RestoreFormInput = z.input<typeof restoreFormSchema>;
/** The form as the backup page's panels get it. */
export type RestoreFormApi = UseFormReturn<RestoreFormInput, unknown, RestoreForm>;
