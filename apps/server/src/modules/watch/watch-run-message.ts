import { PATHS, watchChannelSchema, watchRunsSchema } from '@ce/contract';
import type { HeldJob } from '../../core/leased-job.js';
import type { watchRuns } from '../../db/schema.js';
import { roomRefusal } from './watch-api.js';
import type { RunOutcome, WatchRunJobDependencies } from './watch-runs.job.js';
import type { WatchRunsRepository } from './watch-runs.repository.js';
import { CAPABILITIES_OF } from './watch.service.js';

/** A run's one message, to the owner or the watch's room, with the report's PDF where there is one. */
export async function deliverRunMessage(
  deps: Pick<WatchRunJobDependencies, 'webex' | 'runs' | 'roomMembership'>,
  job: HeldJob<typeof watchRuns>,
  watch: NonNullable<Awaited<ReturnType<WatchRunsRepository['watch']>>>,
  message: string,
  pdf: RunOutcome['pdf'],
): Promise<{ status: string; error: string | null }> {
  const { webex } = deps;
  if (!webex) return { status: 'none', error: null };
  const channel = watchChannelSchema.parse(watch.channel);
  const ownerEmail = await deps.runs.ownerEmail(watch.userId);
  // A room only while its owner is a member of it (asked of Webex before each message).
  const refused = await roomRefusal(deps.roomMembership, channel, ownerEmail);
  if (refused) return { status: 'failed', error: refused };
  const to = channel.kind === 'room' ? { roomId: channel.roomId } : ownerEmail;
  // Once, and tried again while Webex does not take it; a worker that lost the run sends nothing (LeaseLostError).
  const key = `watch-run:${job.row.id}`;
  const sent = await webex.deliver(
    key,
    to,
    message,
    pdf ?? undefined,
    {
      subject: key,
      userId: watch.userId,
      notice: {
        source: 'watch',
        path: PATHS.customers,
        title: 'Account Watch message not sent to Webex',
        about: job.row.organizationName,
        // Heard of by those who see the watch: a personal API token carrying the capabilities of what it runs.
        capabilities: CAPABILITIES_OF[watchRunsSchema.parse(watch.runs)],
      },
    },
    () => job.stillHeld(),
  );
  if (sent.outcome === 'waiting') return { status: 'pending', error: sent.error };
  return sent.outcome === 'failed' ? { status: 'failed', error: sent.error } : { status: 'sent', error: null };
}
