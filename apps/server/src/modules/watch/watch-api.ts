import {
  WATCH_MESSAGES,
  WATCH_PAUSE_REASONS,
  watchChannelSchema,
  watchRunsSchema,
  watchScheduleAnswerSchema,
  watchSpeakWhenSchema,
  type Watch,
  type WatchChannel,
} from '@ce/contract';
import type { WatchWithPeople } from './watch.repository.js';

/** Why a watch is paused, in words, by the key its row records. */
const PAUSE_WORDS = new Map<string, string>(Object.entries(WATCH_PAUSE_REASONS));

/** Whether a person is a member of a Webex room, by Webex's memberships (the room unknown to the bot: `no-room`). */
export type RoomMembership = (roomId: string, personEmail: string) => Promise<'member' | 'not-member' | 'no-room'>;

/**
 * Whether a watch's owner may have its messages sent to a room: only to a room they are a member of,
 * asked of Webex when the watch is saved and before each message. Null when they may; the refusal's words otherwise.
 */
export async function roomRefusal(
  membership: RoomMembership | undefined,
  channel: WatchChannel,
  ownerEmail: string,
): Promise<string | null> {
  if (channel.kind !== 'room' || !membership) return null;
  const found = await membership(channel.roomId, ownerEmail).catch(() => 'unreachable' as const);
  if (found === 'member') return null;
  if (found === 'no-room') return WATCH_MESSAGES.roomUnknown;
  if (found === 'not-member') return WATCH_MESSAGES.roomNotMember;
  return WATCH_MESSAGES.roomNotChecked;
}

/** A watch as the API shows it: never the token, only its last 4 characters and its consent. */
export function toApi({ watch, owner, storedBy }: WatchWithPeople): Watch {
  const token =
    watch.tokenId && watch.tokenLast4 && watch.tokenStoredAt && watch.tokenExpiresAt
      ? {
          last4: watch.tokenLast4,
          storedAt: watch.tokenStoredAt.toISOString(),
          storedBy: storedBy ?? owner,
          contactName: watch.consentContactName ?? '',
          contactEmail: watch.consentContactEmail ?? '',
          expiresAt: watch.tokenExpiresAt.toISOString(),
        }
      : null;
  return {
    id: watch.id,
    owner,
    organizationId: watch.organizationId,
    organizationName: watch.organizationName,
    accountGroups: watch.accountGroups,
    runs: watchRunsSchema.parse(watch.runs),
    schedule: watchScheduleAnswerSchema.parse(watch.schedule),
    channel: watchChannelSchema.parse(watch.channel),
    speakWhen: watchSpeakWhenSchema.parse(watch.speakWhen),
    monthlyReviewPack: watch.monthlyReviewPack,
    status: watch.status === 'active' ? 'active' : 'paused',
    pausedReason: watch.pausedReason ? (PAUSE_WORDS.get(watch.pausedReason) ?? null) : null,
    token,
    nextRunAt: watch.nextRunAt?.toISOString() ?? null,
    lastRunAt: watch.lastRunAt?.toISOString() ?? null,
    createdAt: watch.createdAt.toISOString(),
    updatedAt: watch.updatedAt.toISOString(),
  };
}
