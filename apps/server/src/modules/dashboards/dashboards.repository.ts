import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DashboardSort } from '@ce/contract';
import {
  communityDashboardImages,
  communityDashboardPushes,
  communityDashboardReviews,
  communityDashboards,
  communityDashboardVotes,
  users,
} from '../../db/schema.js';
import type { Db } from '../../core/database.js';
import { timelineWhere, type TimelineQuery } from '../../core/timeline.js';
import type { StoredScreenshot } from './screenshots.js';

export type PushRow = typeof communityDashboardPushes.$inferSelect;

export type CommunityDashboardRow = typeof communityDashboards.$inferSelect;
export type ReviewRow = typeof communityDashboardReviews.$inferSelect;

export interface GalleryRow {
  dashboard: CommunityDashboardRow;
  votes: number;
  userVoted: boolean;
  pushCount: number;
  imageCount: number;
}

/** Escapes LIKE's wildcards so a search for "50%" means those characters. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** SQL for the community gallery: dashboards, screenshots, votes, reviews and pushes. */
export class DashboardsRepository {
  constructor(private readonly db: Db) {}

  /** The dashboard and its screenshots in one transaction: an entry never lacks its images. */
  async insert(row: typeof communityDashboards.$inferInsert, screenshots: StoredScreenshot[]): Promise<string> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(communityDashboards).values(row).returning({ id: communityDashboards.id });
      if (!created) throw new Error('insert returned no row');
      await tx
        .insert(communityDashboardImages)
        .values(screenshots.map((image, index) => ({ dashboardId: created.id, position: index + 1, ...image })));
      return created.id;
    });
  }

  async find(id: string): Promise<CommunityDashboardRow | undefined> {
    const [row] = await this.db.select().from(communityDashboards).where(eq(communityDashboards.id, id));
    return row;
  }

  /**
   * The gallery as `userId` sees it (their own vote), filtered by title or description (or one entry by
   * id), in `sort` order.
   */
  async list(
    userId: string,
    { search = '', sort = 'votes', id }: { search?: string; sort?: DashboardSort; id?: string },
    limit = 500,
  ): Promise<GalleryRow[]> {
    const votes = this.db
      .select({ dashboardId: communityDashboardVotes.dashboardId, total: count().as('vote_total') })
      .from(communityDashboardVotes)
      .groupBy(communityDashboardVotes.dashboardId)
      .as('votes');
    const pushes = this.db
      .select({ dashboardId: communityDashboardPushes.dashboardId, total: count().as('push_total') })
      .from(communityDashboardPushes)
      .where(eq(communityDashboardPushes.status, 'done'))
      .groupBy(communityDashboardPushes.dashboardId)
      .as('pushes');
    const images = this.db
      .select({ dashboardId: communityDashboardImages.dashboardId, total: count().as('image_total') })
      .from(communityDashboardImages)
      .groupBy(communityDashboardImages.dashboardId)
      .as('images');
    const mine = this.db
      .select({ dashboardId: communityDashboardVotes.dashboardId })
      .from(communityDashboardVotes)
      .where(eq(communityDashboardVotes.userId, userId))
      .as('mine');
    const voteTotal = sql<number>`coalesce(${votes.total}, 0)`;
    const pushTotal = sql<number>`coalesce(${pushes.total}, 0)`;
    const order =
      sort === 'newest'
        ? [desc(communityDashboards.createdAt)]
        : sort === 'pushed'
          ? [desc(pushTotal), desc(voteTotal), desc(communityDashboards.createdAt)]
          : [desc(voteTotal), desc(communityDashboards.createdAt)];
    const rows = await this.db
      .select({
        dashboard: communityDashboards,
        votes: voteTotal,
        pushCount: pushTotal,
        imageCount: sql<number>`coalesce(${images.total}, 0)`,
        userVoted: sql<boolean>`${mine.dashboardId} is not null`,
      })
      .from(communityDashboards)
      .leftJoin(votes, eq(votes.dashboardId, communityDashboards.id))
      .leftJoin(pushes, eq(pushes.dashboardId, communityDashboards.id))
      .leftJoin(images, eq(images.dashboardId, communityDashboards.id))
      .leftJoin(mine, eq(mine.dashboardId, communityDashboards.id))
      .where(
        and(
          id ? eq(communityDashboards.id, id) : undefined,
          search
            ? or(
                ilike(communityDashboards.title, likePattern(search)),
                ilike(communityDashboards.description, likePattern(search)),
              )
            : undefined,
        ),
      )
      .orderBy(...order)
      .limit(limit);
    return rows.map((row) => ({
      ...row,
      votes: Number(row.votes),
      pushCount: Number(row.pushCount),
      imageCount: Number(row.imageCount),
      userVoted: Boolean(row.userVoted),
    }));
  }

  async reviewsOf(dashboardIds: string[]): Promise<ReviewRow[]> {
    if (dashboardIds.length === 0) return [];
    return this.db
      .select()
      .from(communityDashboardReviews)
      .where(inArray(communityDashboardReviews.dashboardId, dashboardIds))
      .orderBy(asc(communityDashboardReviews.createdAt));
  }

  async image(dashboardId: string, position: number): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select({ content: communityDashboardImages.content })
      .from(communityDashboardImages)
      .where(
        and(eq(communityDashboardImages.dashboardId, dashboardId), eq(communityDashboardImages.position, position)),
      );
    return row?.content;
  }

  /** Adds or removes the user's vote; answers the new total and whether the user now votes. */
  async vote(dashboardId: string, userId: string, add: boolean): Promise<{ votes: number; userVoted: boolean }> {
    if (add) await this.db.insert(communityDashboardVotes).values({ dashboardId, userId }).onConflictDoNothing();
    else
      await this.db
        .delete(communityDashboardVotes)
        .where(and(eq(communityDashboardVotes.dashboardId, dashboardId), eq(communityDashboardVotes.userId, userId)));
    const [total] = await this.db
      .select({ value: count() })
      .from(communityDashboardVotes)
      .where(eq(communityDashboardVotes.dashboardId, dashboardId));
    return { votes: Number(total?.value ?? 0), userVoted: add };
  }

  async addReview(row: typeof communityDashboardReviews.$inferInsert): Promise<void> {
    await this.db.insert(communityDashboardReviews).values(row);
  }

  async setStatus(id: string, status: 'approved' | 'rejected', comment: string, reviewerEmail: string): Promise<void> {
    await this.db
      .update(communityDashboards)
      .set({ status, reviewComment: comment, reviewerEmail, reviewedAt: new Date() })
      .where(eq(communityDashboards.id, id));
  }

  /** One organization's pushes for its page (those made since they name it), newest first, with their titles. */
  async pushTimeline(query: TimelineQuery) {
    const pushes = communityDashboardPushes;
    return this.db
      .select({ push: pushes, title: communityDashboards.title, name: users.name })
      .from(pushes)
      .innerJoin(communityDashboards, eq(communityDashboards.id, pushes.dashboardId))
      .leftJoin(users, eq(users.id, pushes.userId))
      .where(timelineWhere(query, pushes))
      .orderBy(desc(pushes.createdAt))
      .limit(query.limit);
  }

  async recordPush(row: typeof communityDashboardPushes.$inferInsert): Promise<void> {
    await this.db.insert(communityDashboardPushes).values(row);
  }

  /**
   * Records a push under its key before anything is written into the customer's account: the new row, or
   * the push already recorded under that key (a repeated request).
   */
  async beginPush(
    row: typeof communityDashboardPushes.$inferInsert & { pushKey: string },
  ): Promise<{ row: PushRow; begun: boolean }> {
    const [inserted] = await this.db
      .insert(communityDashboardPushes)
      .values({ ...row, status: 'sending' })
      .onConflictDoNothing({ target: communityDashboardPushes.pushKey })
      .returning();
    if (inserted) return { row: inserted, begun: true };
    const earlier = await this.findPush(row.pushKey);
    if (!earlier) throw new Error('a push key conflicted with no row');
    return { row: earlier, begun: false };
  }

  async findPush(pushKey: string): Promise<PushRow | undefined> {
    const [row] = await this.db
      .select()
      .from(communityDashboardPushes)
      .where(eq(communityDashboardPushes.pushKey, pushKey));
    return row;
  }

  async finishPush(id: string, createdDashboardId: string): Promise<void> {
    await this.db
      .update(communityDashboardPushes)
      .set({ status: 'done', createdDashboardId })
      .where(eq(communityDashboardPushes.id, id));
  }

  /**
   * Takes over a push still sending whose attempt began `underWayMs` ago or more (by the database's clock), as
   * its next attempt; undefined when it is not that old yet, or another request took it first.
   */
  async takeOverPush(push: Pick<PushRow, 'id' | 'attempt'>, underWayMs: number): Promise<PushRow | undefined> {
    const t = communityDashboardPushes;
    const [taken] = await this.db
      .update(t)
      .set({ attempt: sql`${t.attempt} + 1`, attemptAt: sql`now()` })
      .where(
        and(
          eq(t.id, push.id),
          eq(t.attempt, push.attempt),
          eq(t.status, 'sending'),
          sql`${t.attemptAt} <= now() - ${underWayMs}::int * interval '1 millisecond'`,
        ),
      )
      .returning();
    return taken;
  }

  /** Whether this attempt is still the push's own: checked right before each write into the customer's account. */
  async pushStillMine(push: Pick<PushRow, 'id' | 'attempt'>): Promise<boolean> {
    const t = communityDashboardPushes;
    const [row] = await this.db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.id, push.id), eq(t.attempt, push.attempt), eq(t.status, 'sending')));
    return row !== undefined;
  }

  /** A push that certainly wrote nothing (the platform refused it): its key may be used again, unless taken over. */
  async forgetPush(push: Pick<PushRow, 'id' | 'attempt'>): Promise<void> {
    const t = communityDashboardPushes;
    await this.db.delete(t).where(and(eq(t.id, push.id), eq(t.attempt, push.attempt), eq(t.status, 'sending')));
  }
}
