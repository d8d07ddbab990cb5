import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  BACKUP_MESSAGES,
  restoreItemRef,
  type Backup,
  type Drift,
  type DriftRequest,
  type RestorePlan,
  type RestoreRequest,
} from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { customerTokenErrors } from '../../../lib/error-toasts';
import { useCustomer } from '../../../lib/use-customer';
import { useDrift, useExportDrift } from '../api/drift';
import { useRestorePlan, useStartRestore } from '../api/restore';
import { LIVE, restoreFormSchema, type RestoreForm, type RestoreFormInput } from '../backup-forms';
import { countsInWords } from '../field-words';
import { DriftSection } from './drift-section';
import { RestorePlanView } from './restore-plan-view';
import { RestoreSection } from './restore-section';
import { dateTime } from '../../../lib/dates';

/**
 * One backup: compared with the live group or another backup (what was added, deleted, changed, field by
 * field, with exports), and a restore of the changes picked: "put back what was deleted", "undo these changes".
 * One panel per part (comparison, restore, plan); the choices are one react-hook-form form.
 */
export function BackupPanel({
  backup,
  backups,
  token,
  groups,
  onRestore,
}: {
  backup: Backup;
  backups: Backup[];
  token: string;
  /** The account groups the token sees in the backup's organization: where it may be restored. */
  groups: { aid: string; accountGroupName: string }[];
  /** A restore started: its id, and the other organization's token when it writes there (for its undo). */
  onRestore: (runId: string, targetToken: string) => void;
}) {
  const form = useForm<RestoreFormInput, unknown, RestoreForm>({
    resolver: zodResolver(restoreFormSchema),
    defaultValues: { against: LIVE, changes: [], items: [], elsewhere: false, aid: backup.aid },
  });
  const elsewhere = useWatch({ control: form.control, name: 'elsewhere' });
  // Another organization's group: its own Org Admin token and what it sees.
  const other = useCustomer('backup-restore');
  const targetGroups = elsewhere ? other.inOrganization : groups;
  const [compared, setCompared] = useState<{ drift: Drift; request: DriftRequest } | null>(null);
  const [plan, setPlan] = useState<RestorePlan | null>(null);
  const drift = useDrift(customerTokenErrors('Failed to compare the backup'));
  const exportDrift = useExportDrift(customerTokenErrors('Failed to export the comparison'));
  const planRestore = useRestorePlan(customerTokenErrors('Failed to plan the restore'));
  const start = useStartRestore(customerTokenErrors('Failed to start the restore'));
  const others = backups.filter(
    (candidate) => candidate.id !== backup.id && candidate.status === 'done' && candidate.aid === backup.aid,
  );

  // Any change to what is asked makes the plan shown stale: it is planned again before applying.
  const { subscribe } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: () => setPlan(null) }), [subscribe]);

  const compare = async () => {
    const against = form.getValues('against');
    if (against === LIVE && !token) {
      toast.error(BACKUP_MESSAGES.tokenRequired);
      return;
    }
    const request: DriftRequest = against === LIVE ? { token } : { backupId: against };
    try {
      setCompared({ drift: await drift.mutateAsync({ id: backup.id, against: request }), request });
      form.setValue('changes', []);
      setPlan(null);
    } catch {
      // Said by the query client's error toast.
    }
  };

  /** The restore request of the choices, or null when nothing is picked. */
  const restoreRequest = (values: RestoreForm): RestoreRequest | null => {
    // Changes picked in a drift apply to the backup's own group; items picked from the backup go anywhere.
    const fromDrift =
      !values.elsewhere && values.aid === backup.aid
        ? (compared?.drift.changes ?? []).filter((change) => values.changes.includes(restoreItemRef(change)))
        : [];
    if (values.items.length === 0 && fromDrift.length === 0) return null;
    return {
      token,
      aid: values.aid,
      ...(values.elsewhere && other.organization
        ? { targetOrganization: { token: other.token, organization: other.organization } }
        : {}),
      items: [
        ...new Set([...values.items, ...fromDrift.filter((change) => change.change !== 'added').map(restoreItemRef)]),
      ],
      remove: fromDrift.filter((change) => change.change === 'added').map(restoreItemRef),
    };
  };

  const preview = () => {
    if (!token || (form.getValues('elsewhere') && !other.organization)) {
      toast.error(BACKUP_MESSAGES.tokenRequired);
      return;
    }
    void form.handleSubmit(
      (values) => {
        const request = restoreRequest(values);
        if (!request) {
          toast.error('Pick at least one change to restore');
          return;
        }
        planRestore.mutate({ id: backup.id, request }, { onSuccess: setPlan });
      },
      (errors) => toast.error(errors.aid?.message ?? BACKUP_MESSAGES.groupsRequired),
    )();
  };

  const apply = form.handleSubmit(async (values) => {
    const request = restoreRequest(values);
    if (!request) return;
    const run = await start.mutateAsync({ id: backup.id, request });
    onRestore(run.id, values.elsewhere ? other.token : '');
  });

  return (
    <section className="space-y-4 rounded-md border border-slate-200 p-4" aria-label="Backup">
      <h2 className="text-xl font-semibold">
        {backup.accountGroupName}, backed up {dateTime(backup.createdAt)}
      </h2>
      <p className="text-sm text-slate-600">
        {backup.items ?? 0} items · {countsInWords(backup.counts ?? {})} · SHA-256{' '}
        <span className="font-mono">{backup.checksum?.slice(0, 12)}…</span>
      </p>
      <DriftSection
        backup={backup}
        others={others}
        form={form}
        compared={compared}
        comparing={drift.isPending}
        onCompare={() => void compare()}
        onExport={(format) => compared && exportDrift.mutate({ id: backup.id, against: compared.request, format })}
      />
      <RestoreSection
        backup={backup}
        form={form}
        other={other}
        targetGroups={targetGroups}
        planning={planRestore.isPending}
        onPreview={preview}
      />
      {plan && <RestorePlanView plan={plan} starting={start.isPending} onApply={apply} />}
    </section>
  );
}
