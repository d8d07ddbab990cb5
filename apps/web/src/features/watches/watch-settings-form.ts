import type { UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import {
  WATCH_CADENCES,
  WATCH_MESSAGES,
  WATCH_SEVERITIES,
  watchRoomIdSchema,
  watchRunsSchema,
  watchTimeSchema,
  watchTimeZoneSchema,
  type Watch,
  type WatchSettings,
} from '@ce/contract';
import { ApiRequestError } from '../../lib/api-client';

/**
 * What a watch is set to do, as its forms hold it (the new watch's and the edit's): text where the page types it,
 * checked by the contract's schemas where it has them.
 */
export const settingsFields = {
  aids: z.array(z.string()).min(1, WATCH_MESSAGES.noAccountGroups),
  runs: watchRunsSchema,
  cadence: z.enum(WATCH_CADENCES),
  weekday: z.string(),
  time: watchTimeSchema,
  timeZone: z.string().trim().min(1, 'A time zone such as Europe/Paris').pipe(watchTimeZoneSchema),
  channel: z.enum(['owner', 'room']),
  roomId: z.string().trim(),
  anyChange: z.boolean(),
  drift: z.boolean(),
  scoreDrop: z.string().regex(/^(|[1-9]\d?|100)$/, 'Points from 1 to 100, or empty'),
  newFindingsAtLeast: z.enum(['', ...WATCH_SEVERITIES]),
  weeklyQuietLine: z.boolean(),
  monthlyReviewPack: z.boolean(),
};

/** The settings' own schema: the edit's form, and the type both forms share. */
export const settingsSchema = z.object(settingsFields);
export type SettingsFormInput = z.input<typeof settingsSchema>;
export type SettingsFormOutput = z.output<typeof settingsSchema>;

/** A room only when the messages go to one; its id as the contract takes it. */
export function refineRoom(form: Pick<SettingsFormOutput, 'channel' | 'roomId'>, context: z.RefinementCtx): void {
  if (form.channel === 'owner') return;
  for (const issue of watchRoomIdSchema.safeParse(form.roomId).error?.issues ?? [])
    context.addIssue({ code: 'custom', message: issue.message, path: ['roomId'] });
}

export const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A new watch's settings before the TAM changes them. */
export const NEW_SETTINGS: SettingsFormInput = {
  aids: [],
  runs: 'both',
  cadence: 'weekly',
  weekday: '1',
  time: '07:00',
  timeZone: localZone(),
  channel: 'owner',
  roomId: '',
  anyChange: true,
  drift: true,
  scoreDrop: '',
  newFindingsAtLeast: '',
  weeklyQuietLine: false,
  monthlyReviewPack: false,
};

/** A watch's settings as its edit opens them: exactly what it is set to do. */
export function settingsOfWatch(watch: Watch): SettingsFormInput {
  return {
    aids: watch.accountGroups.map((group) => group.aid),
    runs: watch.runs,
    cadence: watch.schedule.cadence,
    weekday: String(watch.schedule.weekday ?? 1),
    time: watch.schedule.time,
    timeZone: watch.schedule.timeZone,
    channel: watch.channel.kind,
    roomId: watch.channel.kind === 'room' ? watch.channel.roomId : '',
    anyChange: watch.speakWhen.anyChange,
    drift: watch.speakWhen.drift,
    scoreDrop: watch.speakWhen.scoreDrop === null ? '' : String(watch.speakWhen.scoreDrop),
    newFindingsAtLeast: watch.speakWhen.newFindingsAtLeast ?? '',
    weeklyQuietLine: watch.speakWhen.weeklyQuietLine,
    monthlyReviewPack: watch.monthlyReviewPack,
  };
}

/** What the form says, as the API takes it (the groups ticked, named as `groups` names them). */
export function settingsRequest(
  form: SettingsFormOutput,
  groups: readonly { aid: string; accountGroupName: string }[],
): Omit<WatchSettings, 'monthlyReviewPack'> & { monthlyReviewPack: boolean } {
  return {
    accountGroups: groups
      .filter((group) => form.aids.includes(group.aid))
      .map(({ aid, accountGroupName }) => ({ aid, accountGroupName })),
    runs: form.runs,
    schedule: {
      cadence: form.cadence,
      weekday: form.cadence === 'weekly' ? Number(form.weekday) : null,
      time: form.time,
      timeZone: form.timeZone,
    },
    channel: form.channel === 'room' ? { kind: 'room', roomId: form.roomId } : { kind: 'owner' },
    speakWhen: {
      anyChange: form.anyChange,
      drift: form.drift,
      scoreDrop: form.scoreDrop === '' ? null : Number(form.scoreDrop),
      newFindingsAtLeast: form.newFindingsAtLeast === '' ? null : form.newFindingsAtLeast,
      weeklyQuietLine: form.weeklyQuietLine,
    },
    monthlyReviewPack: form.monthlyReviewPack,
  };
}

/** The form's field for each path the server names in a refusal (`fields[].path`). */
const SERVER_PATHS: Record<string, keyof SettingsFormInput> = {
  accountGroups: 'aids',
  runs: 'runs',
  'schedule.cadence': 'cadence',
  'schedule.weekday': 'weekday',
  'schedule.time': 'time',
  'schedule.timeZone': 'timeZone',
  channel: 'roomId',
  'channel.roomId': 'roomId',
  'speakWhen.scoreDrop': 'scoreDrop',
  'speakWhen.newFindingsAtLeast': 'newFindingsAtLeast',
  monthlyReviewPack: 'monthlyReviewPack',
};

/** The form's field a server's field path is about (`accountGroups.0.aid` is the groups'), or null. */
export function fieldOfPath(path: string): keyof SettingsFormInput | null {
  if (path.startsWith('accountGroups')) return 'aids';
  return SERVER_PATHS[path] ?? null;
}

/**
 * A server's refusal said beside each field it names, the first one focused (the busy Save it was pressed on has
 * let go of the focus); answers whether any was placed, so the caller says the rest above the form.
 */
export function placeRefusal(setError: UseFormSetError<SettingsFormInput>, error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  let placed = false;
  for (const field of error.fields) {
    const name = fieldOfPath(field.path);
    if (!name) continue;
    setError(name, { message: field.message }, { shouldFocus: !placed });
    placed = true;
  }
  // Focus scrolls the field in only just: on a phone its line under it would stay hidden under the dialog's footer.
  if (placed)
    requestAnimationFrame(() => document.activeElement?.scrollIntoView?.({ block: 'center', behavior: 'instant' }));
  return placed;
}
