import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { WATCH_EDIT, WATCH_MESSAGES, type Watch } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast-store';
import { apiErrorText } from '../../../lib/error-toasts';
import { useCustomers } from '../../../lib/customer';
import { useUpdateWatch } from '../api/update-watch';
import {
  placeRefusal,
  refineRoom,
  settingsSchema,
  settingsOfWatch,
  settingsRequest,
  type SettingsFormInput,
  type SettingsFormOutput,
} from '../watch-settings-form';
import { useFormRefusal } from './form-refusal';
import { WatchSettingsFields } from './watch-settings-fields';

/** The edit's fields: the new watch's settings, and a review pack only with the health check (as the server says). */
const editSchema = settingsSchema.superRefine((form, context) => {
  refineRoom(form, context);
  if (form.monthlyReviewPack && form.runs === 'backup')
    context.addIssue({ code: 'custom', message: WATCH_MESSAGES.packNeedsHealth, path: ['monthlyReviewPack'] });
});

/**
 * A watch's settings changed in place (its card's Edit): opened with what it is set to do; Save answers the card at
 * once, a refusal is said beside its field (or above the form) and the form keeps what was typed. What cannot change
 * (the organization, the stored token) is shown with the reason.
 */
export function EditWatchDialog({ watch, isOpen, onClose }: { watch: Watch; isOpen: boolean; onClose: () => void }) {
  const update = useUpdateWatch();
  const refusal = useFormRefusal();
  const formId = useId();
  const { current } = useCustomers();
  // The watch's groups, and (with a stored token to check them) the chosen customer's others: added ones are checked.
  const groups = useMemo(() => {
    const own = watch.accountGroups.map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
    if (!watch.token || current?.organizationId !== watch.organizationId) return own;
    const known = new Set(own.map((group) => group.aid));
    const others = (current.groups ?? [])
      .filter((group) => !known.has(group.aid))
      .map(({ aid, accountGroupName }) => ({ aid, accountGroupName }));
    return [...own, ...others];
  }, [watch, current]);
  const form = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    resolver: zodResolver(editSchema),
    defaultValues: settingsOfWatch(watch),
  });

  const submit = form.handleSubmit(async (values) => {
    refusal.clear();
    try {
      await update.mutateAsync({
        id: watch.id,
        settings: { ...settingsRequest(values, groups), expectedUpdatedAt: watch.updatedAt },
      });
    } catch (error) {
      // Beside the field the server names; anything else above the form. What was typed stays.
      if (!placeRefusal(form.setError, error)) refusal.say(apiErrorText(error));
      return;
    }
    toast.success(WATCH_EDIT.saved(watch.organizationName));
    onClose();
  });

  return (
    <Dialog
      title={WATCH_EDIT.title(watch.organizationName)}
      isOpen={isOpen}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {/* A submit of the form it sits under: Enter in a field saves too. */}
          <Button type="submit" form={formId} busy={update.isPending} busyLabel="Saving">
            Save
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={formId} className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          {refusal.banner}
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]" data-testid="watch-fixed">
            <dt className="text-slate-600">Organization</dt>
            <dd>
              {watch.organizationName} <span className="text-slate-600">({watch.organizationId})</span>
              <p className="text-slate-600">{WATCH_EDIT.organizationFixed}</p>
            </dd>
            <dt className="text-slate-600">Stored token</dt>
            <dd>
              {watch.token ? `…${watch.token.last4}, approved by ${watch.token.contactName}` : 'None'}
              <p className="text-slate-600">{WATCH_EDIT.tokenElsewhere}</p>
            </dd>
          </dl>
          <WatchSettingsFields
            groups={groups}
            groupsHint={
              !watch.token
                ? WATCH_EDIT.groupsWithoutToken
                : groups.length > watch.accountGroups.length
                  ? WATCH_EDIT.groupsChecked
                  : undefined
            }
            keepPackShown
          />
        </form>
      </FormProvider>
    </Dialog>
  );
}
