/** What other modules may use of the audit module: recording administrative actions and reading them. */
import type { AuditRepository } from './audit.repository.js';

export type { Actor } from './audit.repository.js';

/** The audit log as other modules see it: record an action, list the latest. */
export type AuditLog = Pick<AuditRepository, 'record' | 'list'>;
