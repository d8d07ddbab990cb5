import { useId, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Select, TextInput } from '../../../components/ui/field';
import type { SettingsFormInput } from '../watch-settings-form';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The zone names the browser knows, offered as the time zone is typed ("Europe/Pa…"); none where it has no list. */
const ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? ['UTC', ...Intl.supportedValuesOf('timeZone')] : [];

/**
 * What a watch is set to do, in the new watch's form and in its edit (inside their `FormProvider`): its account
 * groups (once known), what runs when, where the message goes, when it speaks and the monthly review pack.
 */
export function WatchSettingsFields({
  groups,
  groupsHint,
  keepPackShown = false,
}: {
  /** The account groups to choose from, null until they are known. */
  groups: readonly { aid: string; accountGroupName: string }[] | null;
  /** A line under the account groups. */
  groupsHint?: ReactNode;
  /**
   * The edit: a review pack duty ticked stays shown (with its refusal) when the watch is set to backups alone, so it
   * is never dropped unseen. A new watch's choice goes instead, and is not sent.
   */
  keepPackShown?: boolean;
}) {
  const form = useFormContext<SettingsFormInput>();
  const { errors } = form.formState;
  const [cadence, channel, runs, pack] = useWatch({
    control: form.control,
    name: ['cadence', 'channel', 'runs', 'monthlyReviewPack'],
  });
  const packShown = runs !== 'backup' || (keepPackShown && pack);
  const zonesId = useId();
  return (
    <>
      {groups && (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium">Account groups</legend>
          {groups.map((group) => (
            <label key={group.aid} className="flex items-center gap-2 text-sm">
              <input type="checkbox" value={group.aid} {...form.register('aids')} />
              {group.accountGroupName}
            </label>
          ))}
          {groupsHint && <p className="text-sm text-slate-600">{groupsHint}</p>}
          {errors.aids && <p className="text-sm text-red-700">{errors.aids.message}</p>}
        </fieldset>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label="What runs"
          {...form.register('runs')}
          error={errors.runs?.message}
          options={[
            { value: 'both', label: 'Health check and backup' },
            { value: 'health', label: 'Health check (AHC v7)' },
            { value: 'backup', label: 'Backup' },
          ]}
        />
        <Select
          label="How often"
          {...form.register('cadence')}
          options={[
            { value: 'weekly', label: 'Weekly' },
            { value: 'daily', label: 'Daily' },
          ]}
        />
        {cadence === 'weekly' && (
          <Select
            label="On"
            {...form.register('weekday')}
            error={errors.weekday?.message}
            options={WEEKDAYS.map((day, index) => ({ value: String(index), label: day }))}
          />
        )}
        <TextInput label="At" type="time" {...form.register('time')} error={errors.time?.message} />
        <TextInput
          label="Time zone"
          list={ZONES.length > 0 ? zonesId : undefined}
          autoComplete="off"
          {...form.register('timeZone')}
          error={errors.timeZone?.message}
        />
        {ZONES.length > 0 && (
          <datalist id={zonesId}>
            {ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        )}
        <Select
          label="Message to"
          {...form.register('channel')}
          options={[
            { value: 'owner', label: 'Me, in Webex' },
            { value: 'room', label: 'A Webex room' },
          ]}
        />
        {channel === 'room' && (
          <TextInput label="Webex room id" {...form.register('roomId')} error={errors.roomId?.message} />
        )}
      </div>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Send a message when</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('anyChange')} /> Anything changed
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('drift')} /> The configuration changed since the last backup
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...form.register('weeklyQuietLine')} /> Once a week, say “all quiet” when nothing else
          was said
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextInput
            label="The score drops by at least (points)"
            inputMode="numeric"
            {...form.register('scoreDrop')}
            error={errors.scoreDrop?.message}
          />
          <Select
            label="Also when new findings are"
            {...form.register('newFindingsAtLeast')}
            options={[
              { value: '', label: 'Not on their own' },
              { value: 'warn', label: 'Warning or worse' },
              { value: 'fail', label: 'Failing only' },
            ]}
          />
        </div>
      </fieldset>
      {packShown && (
        <div className="space-y-1">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              aria-describedby={errors.monthlyReviewPack ? 'monthly-pack-hint monthly-pack-error' : 'monthly-pack-hint'}
              aria-invalid={errors.monthlyReviewPack ? true : undefined}
              {...form.register('monthlyReviewPack')}
            />{' '}
            Build last month’s review pack on the first run of each month
          </label>
          <p id="monthly-pack-hint" className="text-sm text-slate-600">
            Kept in My Reports and sent to you in Webex, from what the watch measured that month.
          </p>
          {errors.monthlyReviewPack && (
            <p id="monthly-pack-error" className="text-sm text-red-700">
              {errors.monthlyReviewPack.message}
            </p>
          )}
        </div>
      )}
    </>
  );
}
