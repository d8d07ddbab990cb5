import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { z } from 'zod';
import { PATHS } from '@ce/contract';
import type { Db } from '../../core/database.js';
import { timelineWhere, type SourcedEntry, type TimelineQuery, type TimelineSource } from '../../core/timeline.js';
import { users, watchRuns } from '../../db/schema.js';
import { actorWords, changeActorSchema, type ChangeActor } from './change-attribution.js';
import { driftWords } from './watch-changes.js';

/** A kept drift line as the page reads it back; a line that does not parse is left out. */
const keptLineSchema = z.object({
  accountGroupName: z.string(),
  kind: z.string(),
  name: z.string(),
  change: z.enum(['added', 'removed', 'changed', 'renamed']),
  previousName: z.string().optional(),
  fields: z.array(z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
  takenOutOf: z.array(z.string()).optional(),
  stillNamedBy: z.array(z.string()).optional(),
  by: changeActorSchema.optional(),
});
const keptDriftSchema = z
  .object({ drift: z.array(z.unknown()).catch([]) })
  .catch({ drift: [] })
  .transform(({ drift }) =>
    drift.flatMap((line) => {
      const parsed = keptLineSchema.safeParse(line);
      return parsed.success ? [parsed.data] : [];
    }),
  );

/** A message's words as plain text: the escapes Webex's markdown needs taken out. */
const plain = (markdown: string) =>
  markdown.replace(/\\(.)/g, '$1').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** Who a change's entry names: the TAM for ours, the customer's user, or no one known. */
function personOfActor(actor: ChangeActor | undefined) {
  if (actor?.by === 'us') return { name: actor.name, email: actor.email };
  if (actor?.by === 'customer') return { name: actor.user, email: actor.user.includes('@') ? actor.user : '' };
  return { name: 'Unknown', email: '' };
}

/**
 * The changes a customer's watches found at it (each backup's drift since the one before), on its page: one entry a
 * change, with who made it (our journal, the platform's audit log, or unknown). The caller's own watches, or
 * everyone's for those who may see every run; the same runs the header's count of changes reads.
 */
export function changesTimeline(db: Db): TimelineSource {
  return {
    tools: ['changes'],
    async timeline(query: TimelineQuery): Promise<SourcedEntry[]> {
      const rows = await db
        .select({ run: watchRuns })
        .from(watchRuns)
        // The owner's row, joined as `users`: one person's watches among everyone's.
        .innerJoin(users, eq(users.id, watchRuns.userId))
        .where(and(eq(watchRuns.status, 'done'), isNotNull(watchRuns.backups), timelineWhere(query, watchRuns)))
        .orderBy(desc(watchRuns.createdAt))
        .limit(query.limit);
      const drift = `${PATHS.customers}/${encodeURIComponent(query.organizationId)}?tool=changes&days=30#timeline-heading`;
      return rows
        .flatMap(({ run }) =>
          keptDriftSchema.parse(run.changes ?? {}).map((line, index): SourcedEntry => {
            const by = line.by ?? { by: 'unknown' as const };
            return {
              id: `${run.id}:${index}`,
              tool: 'changes',
              what: plain(driftWords(line).text),
              accountGroups: [line.accountGroupName],
              person: personOfActor(line.by),
              createdAt: (run.finishedAt ?? run.createdAt).toISOString(),
              status: 'done',
              // Ours opens the run or push that made it; the customer's and unknown ones the changes' view.
              path: by.by === 'us' && by.path ? by.path : drift,
              organizationName: run.organizationName,
              by: { kind: by.by, words: actorWords(by) },
            };
          }),
        )
        .slice(0, query.limit);
    },
  };
}
