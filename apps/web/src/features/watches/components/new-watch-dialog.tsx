import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  WATCH_CADENCES,
  WATCH_DEFAULTS,
  WATCH_MESSAGES,
  WATCH_SEVERITIES,
  watchRoomIdSchema,
  watchRunsSchema,
  watchTimeSchema,
  watchTimeZoneSchema,
  type CreateWatch,
  type ReportAccountGroup,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Select, TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { TokenField } from '../../../components/ui/token-field';
import { useCustomers } from '../../../lib/customer';
import { useTokenGroups } from '../../../lib/use-token-groups';
import { useCreateWatch } from '../api/create-watch';
import { consentFields, tokenField } from '../watch-form-fields';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The form's fields, as text where the page types them, checked by the contract's schemas where it has them. */
const formSchema = z
  .object({
    token: tokenField,
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
    ...consentFields,
  })
  .superRefine((form, context) => {
    // A room only when the messages go to one; its id as the contract takes it.
    if (form.channel === 'owner') return;
    for (const issue of watchRoomIdSchema.safeParse(form.roomId).error?.issues ?? [])
      context.addIssue({ code: 'custom', message: issue.message, path: ['roomId'] });
  });
type WatchForm = z.input<typeof formSchema>;

const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** What the form says, as the API takes it. */
function request(
  form: z.output<typeof formSchema>,
  groups: ReportAccountGroup[],
  organization: { id: string; name: string },
): CreateWatch {
  return {
    token: form.token,
    organization,
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
    // The pack is built from the watch's health checks: a watch of backups alone has no such duty.
    monthlyReviewPack: form.runs !== 'backup' && form.monthlyReviewPack,
    consent: { contactName: form.contactName, contactEmail: form.contactEmail, days: form.days },
  };
}

/**
 * A new watch over this customer: its account groups, what runs when, where the message goes and when it speaks,
 * and the customer's consent to keep the token (the contact who approved it, for how many days).
 */
export function NewWatchDialog({
  organization,
  isOpen,
  onClose,
}: {
  organization: { id: string; name: string };
  isOpen: boolean;
  onClose: () => void;
}) {
  const tokenGroups = useTokenGroups();
  const [groups, setGroups] = useState<ReportAccountGroup[] | null>(null);
  const create = useCreateWatch();
  const form = useForm<WatchForm, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      token: '',
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
      contactName: '',
      contactEmail: '',
      days: String(WATCH_DEFAULTS.tokenMaxDays),
    },
  });
  const [cadence, channel, token, runs] = useWatch({
    control: form.control,
    name: ['cadence', 'channel', 'token', 'runs'],
  });
  const { errors } = form.formState;
  const { current } = useCustomers();
  // The field holds the chosen customer's own token: its groups are read without being asked for.
  const customersToken = current?.organizationId === organization.id && current.token === token.trim();

  const loadGroups = async () => {
    // The token field's own check first: its words when empty, the contract's when malformed.
    if (!(await form.trigger('token'))) return undefined;
    const token = form.getValues('token').trim();
    try {
      const loaded = (await tokenGroups.load(token)).filter((group) => group.organizationId === organization.id);
      if (loaded.length === 0)
        return form.setError('token', { message: `This token does not reach ${organization.name}.` });
      setGroups(loaded);
      // A watch covers the whole customer unless the TAM unticks some.
      form.setValue(
        'aids',
        loaded.map((group) => group.aid),
      );
    } catch {
      setGroups(null);
    }
    return undefined;
  };

  // The field takes the chosen customer's token (when the dialog opens, or after a switch): its groups are read then.
  const tokenInput = form.register('token');
  const onTokenChange: typeof tokenInput.onChange = async (event) => {
    await tokenInput.onChange(event);
    const typed = String((event as { target?: { value?: unknown } }).target?.value ?? '').trim();
    if (current?.organizationId === organization.id && current.token === typed) await loadGroups();
  };

  const submit = form.handleSubmit(async (values) => {
    // A refusal is said by the query client's error toast; the form stays as it was.
    const created = await create.mutateAsync(request(values, groups ?? [], organization)).catch(() => null);
    if (!created) return;
    toast.success(
      `Watching ${created.organizationName}: first run ${created.nextRunAt ? new Date(created.nextRunAt).toLocaleString() : 'when resumed'}.`,
    );
    form.reset();
    setGroups(null);
    onClose();
  });

  return (
    <Dialog
      title={`Watch ${organization.name}`}
      isOpen={isOpen}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} busy={create.isPending} busyLabel="Creating" disabled={!groups}>
            Create watch
          </Button>
        </>
      }
    >
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <TokenField
              label="Org Admin token"
              {...tokenInput}
              onChange={onTokenChange}
              error={errors.token?.message}
            />
          </div>
          {!customersToken && (
            <Button
              variant="secondary"
              onClick={() => void loadGroups()}
              busy={tokenGroups.loading}
              busyLabel="Loading"
            >
              Load account groups
            </Button>
          )}
        </div>
        {!groups && (
          <p className="text-sm text-slate-600">
            {customersToken && tokenGroups.loading
              ? 'Reading the customer’s account groups…'
              : 'Load the token’s account groups to choose which ones the watch covers.'}
          </p>
        )}
        {groups && (
          <fieldset className="space-y-1">
            <legend className="text-sm font-medium">Account groups</legend>
            {groups.map((group) => (
              <label key={group.aid} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={group.aid} {...form.register('aids')} />
                {group.accountGroupName}
              </label>
            ))}
            {errors.aids && <p className="text-sm text-red-700">{errors.aids.message}</p>}
          </fieldset>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <Select
            label="What runs"
            {...form.register('runs')}
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
              options={WEEKDAYS.map((day, index) => ({ value: String(index), label: day }))}
            />
          )}
          <TextInput label="At" type="time" {...form.register('time')} error={errors.time?.message} />
          <TextInput label="Time zone" {...form.register('timeZone')} error={errors.timeZone?.message} />
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
            <input type="checkbox" {...form.register('weeklyQuietLine')} /> Once a week, say “all quiet” when nothing
            else was said
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
        {runs !== 'backup' && (
          <div className="space-y-1">
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" aria-describedby="monthly-pack-hint" {...form.register('monthlyReviewPack')} />{' '}
              Build last month’s review pack on the first run of each month
            </label>
            <p id="monthly-pack-hint" className="text-sm text-slate-600">
              Kept in My Reports and sent to you in Webex, from what the watch measured that month.
            </p>
          </div>
        )}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">The customer’s consent to keep their token</legend>
          <p className="text-sm text-slate-600">
            The token is stored sealed, never shown again, and erased when the consent ends, when it is revoked, or when
            the platform refuses it.
          </p>
          <div className="grid gap-3 sm:grid-cols-3">
            <TextInput
              label="Approved by (name)"
              {...form.register('contactName')}
              error={errors.contactName?.message}
            />
            <TextInput
              label="Their email"
              type="email"
              {...form.register('contactEmail')}
              error={errors.contactEmail?.message}
            />
            <TextInput
              label="For (days)"
              hint={`At most ${WATCH_DEFAULTS.tokenMaxDays} unless your installation says otherwise`}
              inputMode="numeric"
              {...form.register('days')}
              error={errors.days?.message}
            />
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
