import { and, eq, inArray, isNotNull, ne, notInArray, sql } from 'drizzle-orm';
import { backups, changeSets, reportRequests, sealedTokens, watches } from '../db/schema.js';
import type { Db } from './database.js';
import { periodicJob, type Job } from './jobs.js';
import { RetiredKeyError, type TokenVault } from './token-vault.js';

/** Statuses of a job that may still need its token. */
const ACTIVE = ['queued', 'running'];

/**
 * Customer tokens held for jobs: sealed with the vault's current key into their own row, opened by the
 * worker, deleted when the job ends. Nothing else in the database carries a token.
 */
export class SealedTokens {
  constructor(
    private readonly db: Db,
    private readonly vault: TokenVault,
  ) {}

  /** Seals `token` into a new row and returns its id. */
  async seal(token: string, db: Pick<Db, 'insert'> = this.db): Promise<string> {
    const { keyId, sealed } = this.vault.seal(token);
    const [row] = await db.insert(sealedTokens).values({ keyId, sealed }).returning({ id: sealedTokens.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** The token, or null when it was erased or its key retired (the job can no longer run). */
  async open(id: string | null): Promise<string | null> {
    if (!id) return null;
    const [row] = await this.db.select().from(sealedTokens).where(eq(sealedTokens.id, id));
    if (!row) return null;
    try {
      return this.vault.open(row.sealed);
    } catch (error) {
      if (error instanceof RetiredKeyError) return null;
      throw error;
    }
  }

  /**
   * Opens a token kept for long (a watch's) and, when an older key sealed it, seals it again under the current key
   * in place (same id): a key retired after the next run leaves it readable. Null as `open`.
   */
  async openAndRenew(id: string | null): Promise<string | null> {
    const token = await this.open(id);
    if (!id || token === null) return token;
    const { keyId, sealed } = this.vault.seal(token);
    await this.db
      .update(sealedTokens)
      .set({ keyId, sealed })
      .where(and(eq(sealedTokens.id, id), ne(sealedTokens.keyId, keyId)));
    return token;
  }

  async erase(id: string | null, db: Pick<Db, 'delete'> = this.db): Promise<void> {
    if (id) await db.delete(sealedTokens).where(eq(sealedTokens.id, id));
  }

  /**
   * Deletes every token that no queued or running report or run, nor any watch, refers to (a job that ended without
   * erasing its token, a row left by a crash between two statements), and every token sealed by a key
   * listed as retired. A key this instance merely does not know is left alone: during a rolling rotation
   * it is a newer instance's current key, and its jobs are running. Returns how many were deleted.
   */
  async sweep(): Promise<number> {
    const inUse = this.db
      .select({ id: reportRequests.tokenId })
      .from(reportRequests)
      .where(and(isNotNull(reportRequests.tokenId), inArray(reportRequests.status, ACTIVE)))
      .union(
        this.db
          .select({ id: changeSets.tokenId })
          .from(changeSets)
          .where(and(isNotNull(changeSets.tokenId), inArray(changeSets.status, ACTIVE))),
      )
      .union(
        this.db
          .select({ id: changeSets.targetTokenId })
          .from(changeSets)
          .where(and(isNotNull(changeSets.targetTokenId), inArray(changeSets.status, ACTIVE))),
      )
      .union(
        this.db
          .select({ id: backups.tokenId })
          .from(backups)
          .where(and(isNotNull(backups.tokenId), inArray(backups.status, ACTIVE))),
      )
      // A watch keeps its token between runs, with the customer's consent (decision 0031).
      .union(this.db.select({ id: watches.tokenId }).from(watches).where(isNotNull(watches.tokenId)));
    const unreferenced = await this.db
      .delete(sealedTokens)
      .where(notInArray(sealedTokens.id, sql`(${inUse})`))
      .returning({ id: sealedTokens.id });
    const retiredIds = [...this.vault.retiredKeyIds];
    const retired =
      retiredIds.length === 0
        ? []
        : await this.db
            .delete(sealedTokens)
            .where(inArray(sealedTokens.keyId, retiredIds))
            .returning({ id: sealedTokens.id });
    return unreferenced.length + retired.length;
  }
}

/** Every five minutes, any token no queued or running job refers to, or sealed by a retired key, goes. */
export function tokenJobs(tokens: SealedTokens, logger: { info(object: object, message: string): void }): Job[] {
  return [
    periodicJob('tokens.sweep', '*/5 * * * *', async () => {
      const swept = await tokens.sweep();
      if (swept > 0) logger.info({ swept }, 'sealed tokens no job needs were deleted');
    }),
  ];
}
