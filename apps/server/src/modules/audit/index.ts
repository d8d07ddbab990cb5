/** The audit module: recording administrative actions and reading them; what other modules may use of it. */
import type { AppModule } from '../../core/modules.js';
import { AuditRepository } from './audit.repository.js';

export type { Actor } from './audit.repository.js';

/** The audit log as other modules see it: record an action, list the latest. */
export type AuditLog = Pick<AuditRepository, 'record' | 'list'>;

declare module '../../core/modules.js' {
  interface ModuleServices {
    audit: AuditRepository;
  }
}

export const auditModule: AppModule = {
  name: 'audit',
  register: async ({ db }) => ({ audit: new AuditRepository(db) }),
};
