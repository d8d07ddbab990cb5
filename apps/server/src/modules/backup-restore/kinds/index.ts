import type { BackupKindDescriptor, RestoreDescriptor } from './kind.js';
import { alertRule } from './alert-rule.js';
import { dashboard } from './dashboard.js';
import { endpointDynamicTest } from './endpoint-dynamic-test.js';
import { endpointLabel } from './endpoint-label.js';
import { endpointScheduledTest } from './endpoint-scheduled-test.js';
import { reference } from './reference.js';
import { suppressionWindow } from './suppression-window.js';
import { tag } from './tag.js';
import { test } from './test.js';

/**
 * Every kind a backup holds, in the order they are read, counted and compared (a kind may use what an
 * earlier one read: the tests' keys, the endpoint labels' names). Adding a kind: its file, and a line here.
 */
export const BACKUP_KIND_LIST = [
  test,
  alertRule,
  suppressionWindow,
  dashboard,
  tag,
  endpointLabel,
  endpointScheduledTest,
  endpointDynamicTest,
  reference,
] as const;

export type BackupKind = (typeof BACKUP_KIND_LIST)[number]['kind'];
export const BACKUP_KINDS: readonly BackupKind[] = BACKUP_KIND_LIST.map((descriptor) => descriptor.kind);

const BY_KIND: ReadonlyMap<string, BackupKindDescriptor> = new Map(
  BACKUP_KIND_LIST.map((descriptor) => [descriptor.kind, descriptor]),
);

/** The descriptor of a kind. */
export function backupKind(kind: BackupKind): BackupKindDescriptor {
  const descriptor = BY_KIND.get(kind);
  if (!descriptor) throw new Error(`no backup kind ${kind}`);
  return descriptor;
}

/** The kinds a restore writes, and deletes (an undo creates them again). */
export const RESTORABLE_KINDS: readonly BackupKind[] = BACKUP_KINDS.filter((kind) => backupKind(kind).restore);

export type { BackupKindDescriptor } from './kind.js';

/** How a restore writes a kind (its item actions' calls), for a kind it writes. */
export function restoreOf(kind: string): RestoreDescriptor {
  const restore = BY_KIND.get(kind)?.restore;
  if (!restore) throw new Error(`restore does not write ${kind} items`);
  return restore;
}
