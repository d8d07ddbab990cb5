import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { wellFormedJson } from '@ce/platform-client';
import { pcapCaptures, pcapChunks, users } from '../../db/schema.js';
import type { Db } from '../../core/database.js';
import { deleteCreatedBefore } from '../../core/retention.js';

export type CaptureRow = typeof pcapCaptures.$inferSelect & { uploadedBy: string };
export type CaptureListRow = Pick<
  CaptureRow,
  'id' | 'filename' | 'size' | 'createdAt' | 'sharedWith' | 'uploadedBy'
> & {
  packets: number;
};

/** SQL for packet captures: the summary row and the bytes in chunks. */
export class PcapRepository {
  constructor(private readonly db: Db) {}

  async create(userId: string, filename: string): Promise<string> {
    const [row] = await this.db.insert(pcapCaptures).values({ userId, filename }).returning({ id: pcapCaptures.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  async addChunk(captureId: string, position: number, content: Buffer): Promise<void> {
    await this.db.insert(pcapChunks).values({ captureId, position, content });
  }

  async finish(id: string, size: number, summary: Record<string, unknown>): Promise<void> {
    await this.db.update(pcapCaptures).set({ size, summary }).where(eq(pcapCaptures.id, id));
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(pcapCaptures).where(eq(pcapCaptures.id, id));
  }

  /** A page of the history, newest first, without the summaries (only the packet count is read from them). */
  async list(
    userId: string | null,
    page: { offset: number; limit: number },
  ): Promise<{ rows: CaptureListRow[]; total: number }> {
    const where = and(userId ? eq(pcapCaptures.userId, userId) : undefined, sql`${pcapCaptures.summary} is not null`);
    const rows = await this.db
      .select({
        id: pcapCaptures.id,
        filename: pcapCaptures.filename,
        size: pcapCaptures.size,
        createdAt: pcapCaptures.createdAt,
        sharedWith: pcapCaptures.sharedWith,
        packets: sql<number>`coalesce((${pcapCaptures.summary}->>'packets')::bigint, 0)`.mapWith(Number),
        uploadedBy: users.email,
      })
      .from(pcapCaptures)
      .innerJoin(users, eq(users.id, pcapCaptures.userId))
      .where(where)
      .orderBy(desc(pcapCaptures.createdAt), desc(pcapCaptures.id))
      .offset(page.offset)
      .limit(page.limit);
    const [counted] = await this.db.select({ total: count() }).from(pcapCaptures).where(where);
    return { rows, total: counted?.total ?? 0 };
  }

  async find(id: string): Promise<CaptureRow | undefined> {
    const [row] = await this.db
      .select({ capture: pcapCaptures, uploadedBy: users.email })
      .from(pcapCaptures)
      .innerJoin(users, eq(users.id, pcapCaptures.userId))
      .where(eq(pcapCaptures.id, id));
    return row ? { ...row.capture, uploadedBy: row.uploadedBy } : undefined;
  }

  /** The capture's bytes, chunk by chunk, in order (one chunk in memory at a time). */
  async *chunks(id: string): AsyncGenerator<Buffer> {
    const positions = await this.db
      .select({ position: pcapChunks.position })
      .from(pcapChunks)
      .where(eq(pcapChunks.captureId, id))
      .orderBy(asc(pcapChunks.position));
    for (const { position } of positions) {
      const [row] = await this.db
        .select({ content: pcapChunks.content })
        .from(pcapChunks)
        .where(and(eq(pcapChunks.captureId, id), eq(pcapChunks.position, position)));
      if (row) yield row.content;
    }
  }

  async share(id: string, entry: { email: string; caseNumber: string; at: string }): Promise<void> {
    await this.db
      .update(pcapCaptures)
      .set({ sharedWith: sql`${pcapCaptures.sharedWith} || ${wellFormedJson([entry])}::jsonb` })
      .where(eq(pcapCaptures.id, id));
  }

  deleteOlderThan(date: Date): Promise<number> {
    return deleteCreatedBefore(this.db, pcapCaptures, date);
  }
}
