import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { WAIVER_MAX_DAYS, WAIVER_MESSAGES, type WatchFindings } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { useCreateWaiver, useDeleteWaiver, useWaivers, useWatchFindings } from '../api/watches';
import { useFocusAfterRemoval } from '../hooks/use-focus-after-removal';

type Finding = WatchFindings['findings'][number];

/** A check's id in words: "inactive-users" is "Inactive users". */
const checkWords = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1).replaceAll('-', ' ')}`;

const waiverForm = z.object({
  reason: z.string().trim().min(1, WAIVER_MESSAGES.reasonRequired).max(500),
  days: z.coerce
    .number<string>()
    .int()
    .min(1, 'At least one day')
    .max(WAIVER_MAX_DAYS, `At most ${WAIVER_MAX_DAYS} days`),
});
type WaiverForm = z.input<typeof waiverForm>;

/** Asks why a finding is waived and for how long. */
function WaiveDialog({
  organizationId,
  finding,
  onClose,
}: {
  organizationId: string;
  finding: Finding | null;
  onClose: () => void;
}) {
  const create = useCreateWaiver();
  const form = useForm<WaiverForm, unknown, z.output<typeof waiverForm>>({
    resolver: zodResolver(waiverForm),
    defaultValues: { reason: '', days: '30' },
  });
  const submit = form.handleSubmit(async ({ reason, days }) => {
    if (!finding) return;
    const waived = await create
      .mutateAsync({
        organizationId,
        checkId: finding.checkId,
        itemKey: finding.itemKey,
        itemName: finding.name,
        reason,
        days,
      })
      .catch(() => null);
    if (!waived) return;
    toast.success(`${finding.name} waived until ${new Date(waived.expiresAt).toLocaleDateString()}`);
    form.reset();
    onClose();
  });
  return (
    <Dialog
      title="Waive this finding?"
      isOpen={finding !== null}
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
          {finding?.check}: {finding?.name}
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

/** A customer's open findings (from a watch's latest health check), each waivable, and the waivers in force. */
export function WaiversSection({ organizationId, watchId }: { organizationId: string; watchId: string | null }) {
  const findings = useWatchFindings(watchId);
  const waivers = useWaivers(organizationId, true);
  const end = useDeleteWaiver();
  const [waiving, setWaiving] = useState<Finding | null>(null);
  const inForce = waivers.data ?? [];
  useFocusAfterRemoval(
    inForce.map((waiver) => waiver.id),
    'findings-heading',
  );
  // A finding waived since the latest run is listed as waived at once, not as open.
  const open = (watchId ? (findings.data?.findings ?? []) : []).filter(
    (finding) =>
      !inForce.some(
        (waiver) =>
          waiver.checkId === finding.checkId && (waiver.itemKey === null || waiver.itemKey === finding.itemKey),
      ),
  );
  return (
    <section aria-labelledby="findings-heading" className="space-y-3">
      <h2 id="findings-heading" tabIndex={-1} className="text-xl font-semibold">
        Findings and waivers
      </h2>
      {open.length === 0 ? (
        <p className="text-sm text-slate-600">No open finding in the latest health check of a watch.</p>
      ) : (
        <>
          {findings.data?.at && (
            <p className="text-sm text-slate-600">
              From the health check of {new Date(findings.data.at).toLocaleString()}.
            </p>
          )}
          <ul className="space-y-1" aria-label="Open findings">
            {open.map((finding) => (
              <li
                key={`${finding.checkId}:${finding.itemKey}`}
                className="flex flex-wrap items-center gap-2 text-sm"
                data-testid="open-finding"
              >
                <span className="font-medium">{finding.check}:</span>
                <span className="min-w-0 break-words">
                  {finding.name} ({finding.detail})
                </span>
                <Button
                  size="sm"
                  variant="link"
                  onClick={() => setWaiving(finding)}
                  aria-label={`Waive ${finding.name} (${finding.check})`}
                >
                  Waive
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3 className="text-lg font-medium">Waived</h3>
      {(waivers.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-600">No finding is waived for this customer.</p>
      ) : (
        <ul className="space-y-1" aria-label="Waived findings">
          {(waivers.data ?? []).map((waiver) => (
            <li key={waiver.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="waiver">
              <span className="font-medium">{waiver.itemName ?? 'The whole check'}</span>
              <span className="text-slate-600">
                ({checkWords(waiver.checkId)}) “{waiver.reason}”, by {waiver.createdBy ?? 'a former user'}, until{' '}
                {new Date(waiver.expiresAt).toLocaleDateString()}
              </span>
              <Button
                size="sm"
                variant="link"
                busy={end.isPending}
                busyLabel="Ending"
                onClick={() => end.mutate(waiver.id)}
              >
                End waiver
              </Button>
            </li>
          ))}
        </ul>
      )}
      <WaiveDialog organizationId={organizationId} finding={waiving} onClose={() => setWaiving(null)} />
    </section>
  );
}
