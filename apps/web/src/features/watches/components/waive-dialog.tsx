import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { WAIVER_MAX_DAYS, WAIVER_MESSAGES, type WatchFindings } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { useCreateWaiver } from '../api/create-waiver';
import { dateOnly } from '../../../lib/dates';

/** One item of a check, or the whole check (`itemKey` null). */
type Finding = Omit<WatchFindings['findings'][number], 'itemKey'> & { itemKey: string | null };

const waiverForm = z.object({
  reason: z.string().trim().min(1, WAIVER_MESSAGES.reasonRequired).max(500),
  days: z.coerce
    .number<string>()
    .int()
    .min(1, 'At least one day')
    .max(WAIVER_MAX_DAYS, `At most ${WAIVER_MAX_DAYS} days`),
});
type WaiverForm = z.input<typeof waiverForm>;

/** Asks why a finding is waived and for how long (loaded when asked for: the page's first screen goes without it). */
export function WaiveDialog({
  organizationId,
  token,
  finding,
  onClose,
}: {
  organizationId: string;
  /** The customer's token the browser holds, sent for a caller tied to the customer by it. */
  token?: string | undefined;
  finding: Finding;
  onClose: () => void;
}) {
  const create = useCreateWaiver();
  const form = useForm<WaiverForm, unknown, z.output<typeof waiverForm>>({
    resolver: zodResolver(waiverForm),
    defaultValues: { reason: '', days: '30' },
  });
  const submit = form.handleSubmit(async ({ reason, days }) => {
    const waived = await create
      .mutateAsync({
        organizationId,
        checkId: finding.checkId,
        itemKey: finding.itemKey,
        itemName: finding.itemKey === null ? null : finding.name,
        reason,
        days,
        ...(token ? { token } : {}),
      })
      .catch(() => null);
    if (!waived) return;
    toast.success(`${finding.name} waived until ${dateOnly(waived.expiresAt)}`);
    form.reset();
    onClose();
  });
  return (
    <Dialog
      title={finding.itemKey === null ? 'Waive this whole check?' : 'Waive this finding?'}
      isOpen
      onClose={onClose}
      width="max-w-lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} busy={create.isPending} busyLabel="Waiving">
            Waive
          </Button>
        </>
      }
    >
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        <p className="break-words font-medium">
          {finding.check}: {finding.name}
        </p>
        <p className="text-sm text-slate-600">
          A waived finding is listed apart and counts in neither the score’s change nor the watch’s message. It returns
          when the waiver ends.
        </p>
        <TextInput label="Why" {...form.register('reason')} error={form.formState.errors.reason?.message} />
        <TextInput
          label="For (days)"
          inputMode="numeric"
          {...form.register('days')}
          error={form.formState.errors.days?.message}
        />
      </form>
    </Dialog>
  );
}
