import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { WATCH_DEFAULTS, type CreateWatch, type ReportAccountGroup } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { TokenField } from '../../../components/ui/token-field';
import { useCustomers } from '../../../lib/customer';
import { apiErrorText } from '../../../lib/error-toasts';
import { useTokenGroups } from '../../../lib/use-token-groups';
import { useCreateWatch } from '../api/create-watch';
import { consentFields, tokenField } from '../watch-form-fields';
import { NEW_SETTINGS, placeRefusal, refineRoom, settingsFields, settingsRequest } from '../watch-settings-form';
import { useFormRefusal } from './form-refusal';
import { WatchSettingsFields } from './watch-settings-fields';
import { dateTime } from '../../../lib/dates';

/** The form's fields: the token, what the watch is set to do (shared with its edit) and the consent. */
const formSchema = z.object({ token: tokenField, ...settingsFields, ...consentFields }).superRefine(refineRoom);
type WatchForm = z.input<typeof formSchema>;

/** What the form says, as the API takes it. */
function request(
  form: z.output<typeof formSchema>,
  groups: ReportAccountGroup[],
  organization: { id: string; name: string },
): CreateWatch {
  const settings = settingsRequest(form, groups);
  return {
    ...settings,
    token: form.token,
    organization,
    // The pack is built from the watch's health checks: a watch of backups alone has no such duty.
    monthlyReviewPack: form.runs !== 'backup' && settings.monthlyReviewPack,
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
  const refusal = useFormRefusal();
  const formId = useId();
  const form = useForm<WatchForm, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      token: '',
      ...NEW_SETTINGS,
      contactName: '',
      contactEmail: '',
      days: String(WATCH_DEFAULTS.tokenMaxDays),
    },
  });
  const token = useWatch({ control: form.control, name: 'token' });
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
    refusal.clear();
    // A refusal beside the field the server names (the room, a weekday, an account group), else above the form;
    // the form stays as it was.
    const created = await create.mutateAsync(request(values, groups ?? [], organization)).catch((error: unknown) => {
      if (!placeRefusal(form.setError, error)) refusal.say(apiErrorText(error));
      return null;
    });
    if (!created) return;
    toast.success(
      `Watching ${created.organizationName}: first run ${created.nextRunAt ? dateTime(created.nextRunAt) : 'when resumed'}.`,
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
          {/* A submit of the form it sits under: Enter in a field creates the watch too. */}
          <Button type="submit" form={formId} busy={create.isPending} busyLabel="Creating" disabled={!groups}>
            Create watch
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={formId} className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          {refusal.banner}
          <div className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <TokenField
                label="Org Admin token"
                {...tokenInput}
                onChange={onTokenChange}
                // Enter in the token reads its account groups (the watch cannot be created before).
                onKeyDown={(event) => {
                  if (event.key !== 'Enter' || groups) return;
                  event.preventDefault();
                  void loadGroups();
                }}
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
          <WatchSettingsFields groups={groups} />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">The customer’s consent to keep their token</legend>
            <p className="text-sm text-slate-600">
              The token is stored sealed, never shown again, and erased when the consent ends, when it is revoked, or
              when the platform refuses it.
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
      </FormProvider>
    </Dialog>
  );
}
