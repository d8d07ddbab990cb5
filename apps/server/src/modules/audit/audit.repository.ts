import { desc } from 'drizzle-orm';
import type { AuditEntry } from '@ce/contract';
import type { Db } from '../../core/database.js';
import { auditLog } from '../../db/schema.js';

export interface Actor {
  id: string | null;
  email: string;
  /** The personal API token the actor acted through, when it was a script: the entry names it. */
  apiToken?: { id: string; name: string };
}

/** Administrative actions, written as they happen and read by Super Users. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async record(
    actor: Actor,
    action: string,
    target: string | null,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const via = actor.apiToken ? { apiToken: actor.apiToken.name, apiTokenId: actor.apiToken.id } : {};
    await this.db
      .insert(auditLog)
      .values({ actorId: actor.id, actorEmail: actor.email, action, target, detail: { ...detail, ...via } });
  }

  async list(limit = 200): Promise<AuditEntry[]> {
    const rows = await this.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
    return rows.map((row) => ({
      id: row.id,
      actorEmail: row.actorEmail,
      action: row.action,
      target: row.target,
      detail: row.detail ?? null,
      createdAt: row.createdAt.toISOString(),
    }));
  }
}
