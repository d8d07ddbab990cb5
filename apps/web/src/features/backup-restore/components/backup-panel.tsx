import { useState } from 'react';
import {
  BACKUP_MESSAGES,
  restoreItemRef,
  type Backup,
  type Drift,
  type DriftRequest,
  type RestorePlan,
} from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { Select } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { CustomerFields } from '../../../components/customer-fields';
import { customerTokenErrors } from '../../../lib/error-toasts';
import { useCustomer } from '../../../lib/use-customer';
import { useDrift, useExportDrift } from '../api/drift';
import { useBackupItems } from '../api/items';
import { useRestorePlan, useStartRestore } from '../api/restore';

type Change = Drift['changes'][number];
const LIVE = 'live';
const WORDS = { added: 'added since', removed: 'deleted since', changed: 'changed since' } as const;

function ChangeRow({ change }: { change: Change }) {
  return (
    <span className="grid min-w-0 flex-1 gap-0.5 py-1">
      <span className="flex items-center gap-2">
        <span className="truncate font-medium">{change.name}</span>
        <Badge tone="neutral">{change.kind}</Badge>
        <Badge tone={change.change === 'removed' ? 'danger' : change.change === 'added' ? 'sky' : 'amber'}>
          {WORDS[change.change]}
        </Badge>
      </span>
      {change.fields.length > 0 && (
        <span className="truncate text-xs text-slate-600">
          {change.fields
            .map((field) => `${field.path}: ${field.before ?? '(none)'} → ${field.after ?? '(none)'}`)
            .join(' · ')}
        </span>
      )}
    </span>
  );
}

/**
 * One backup: compared with the live group or another backup (what was added, deleted, changed, field by
 * field, with exports), and a restore of the changes picked: "put back what was deleted", "undo these changes".
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
  const { data: contents } = useBackupItems(backup.id);
  const [picked, setPicked] = useState<Set<string>>(() => new Set());
  const [targetAid, setTargetAid] = useState(backup.aid);
  // Another organization's group: its own Org Admin token and what it sees.
  const [elsewhere, setElsewhere] = useState(false);
  const other = useCustomer('backup-restore');
  const targetGroups = elsewhere ? other.inOrganization : groups;
  const [against, setAgainst] = useState(LIVE);
  const [compared, setCompared] = useState<{ drift: Drift; request: DriftRequest } | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [plan, setPlan] = useState<RestorePlan | null>(null);
  const drift = useDrift(customerTokenErrors('Failed to compare the backup'));
  const exportDrift = useExportDrift(customerTokenErrors('Failed to export the comparison'));
  const planRestore = useRestorePlan(customerTokenErrors('Failed to plan the restore'));
  const start = useStartRestore(customerTokenErrors('Failed to start the restore'));
  const others = backups.filter(
    (other) => other.id !== backup.id && other.status === 'done' && other.aid === backup.aid,
  );

  const compare = async () => {
    if (against === LIVE && !token) {
      toast.error(BACKUP_MESSAGES.tokenRequired);
      return;
    }
    const request: DriftRequest = against === LIVE ? { token } : { backupId: against };
    try {
      setCompared({ drift: await drift.mutateAsync({ id: backup.id, against: request }), request });
      setChosen(new Set());
      setPlan(null);
    } catch {
      // Said by the query client's error toast.
    }
  };
  const changes = compared?.drift.changes ?? [];
  // Changes picked in a drift apply to the backup's own group; items picked from the backup go anywhere.
  const fromDrift =
    !elsewhere && targetAid === backup.aid ? changes.filter((change) => chosen.has(restoreItemRef(change))) : [];
  const restoreRequest = () => ({
    token,
    aid: targetAid,
    ...(elsewhere && other.organization
      ? { targetOrganization: { token: other.token, organization: other.organization } }
      : {}),
    items: [...new Set([...picked, ...fromDrift.filter((change) => change.change !== 'added').map(restoreItemRef)])],
    remove: fromDrift.filter((change) => change.change === 'added').map(restoreItemRef),
  });
  const preview = async () => {
    if (!token || (elsewhere && !other.organization)) {
      toast.error(BACKUP_MESSAGES.tokenRequired);
      return;
    }
    if (!targetAid) {
      toast.error(BACKUP_MESSAGES.groupsRequired);
      return;
    }
    if (picked.size === 0 && fromDrift.length === 0) {
      toast.error('Pick at least one change to restore');
      return;
    }
    try {
      setPlan(await planRestore.mutateAsync({ id: backup.id, request: restoreRequest() }));
    } catch {
      // Said by the query client's error toast.
    }
  };

  return (
    <section className="space-y-4 rounded-md border border-slate-200 p-4" aria-label="Backup">
      <h2 className="text-xl font-semibold">
        {backup.accountGroupName}, backed up {new Date(backup.createdAt).toLocaleString()}
      </h2>
      <p className="text-sm text-slate-600">
        {backup.items ?? 0} items ·{' '}
        {Object.entries(backup.counts ?? {})
          .filter(([, count]) => count > 0)
          .map(([kind, count]) => `${count} ${kind}`)
          .join(', ')}{' '}
        · SHA-256 <span className="font-mono">{backup.checksum?.slice(0, 12)}…</span>
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Compare with"
          value={against}
          onChange={(event) => setAgainst(event.target.value)}
          options={[
            { value: LIVE, label: `${backup.accountGroupName} as it is now` },
            ...others.map((other) => ({
              value: other.id,
              label: `The backup of ${new Date(other.createdAt).toLocaleString()}`,
            })),
          ]}
          fieldClassName="min-w-72"
        />
        <Button
          variant="primary"
          className="mb-[2px]"
          busy={drift.isPending}
          busyLabel="Comparing"
          onClick={() => void compare()}
        >
          Compare
        </Button>
      </div>
      {compared && (
        <div className="space-y-3">
          <p className="text-sm" data-testid="drift-summary">
            {changes.length === 0
              ? `No change since the backup (compared with ${compared.drift.against}).`
              : `${changes.length} change${changes.length === 1 ? '' : 's'} since the backup (compared with ${compared.drift.against}).`}
          </p>
          {changes.length > 0 && (
            <CheckList
              items={changes}
              itemKey={restoreItemRef}
              renderItem={(change) => <ChangeRow change={change} />}
              matches={(change, needle) => `${change.kind} ${change.name}`.toLowerCase().includes(needle)}
              selected={chosen}
              onSelectedChange={(next) => {
                setChosen(next);
                setPlan(null);
              }}
              label="Changes since the backup"
              searchLabel="Search changes"
              rowHeight={56}
              noun="Changes"
              data-testid="changes"
            />
          )}
          <div className="flex flex-wrap gap-2">
            {(['xlsx', 'html'] as const).map((format) => (
              <Button
                key={format}
                size="sm"
                onClick={() => exportDrift.mutate({ id: backup.id, against: compared.request, format })}
              >
                Export {format.toUpperCase()}
              </Button>
            ))}
          </div>
        </div>
      )}
      <div className="space-y-3">
        <h3 className="text-lg font-semibold">Restore</h3>
        <p className="text-sm text-slate-600">
          Put back the changes picked above (into this group), or pick items of the backup to restore here or into
          another group of the organization. Nothing is written before you apply the plan.
        </p>
        {contents && (
          <CheckList
            items={contents.items}
            itemKey={restoreItemRef}
            renderItem={(item) => (
              <span className="flex items-center gap-2">
                <span className="truncate">{item.name}</span>
                <Badge tone="neutral">{item.kind}</Badge>
                {item.masked.length > 0 && <Badge tone="amber">masked: {item.masked.join(', ')}</Badge>}
              </span>
            )}
            matches={(item, needle) => `${item.kind} ${item.name}`.toLowerCase().includes(needle)}
            selected={picked}
            onSelectedChange={(next) => {
              setPicked(next);
              setPlan(null);
            }}
            label="Backup items"
            searchLabel="Search the backup's items"
            noun="Items"
            data-testid="backup-items"
          />
        )}
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={elsewhere}
            onChange={(event) => {
              setElsewhere(event.target.checked);
              setTargetAid(event.target.checked ? '' : backup.aid);
              setPlan(null);
            }}
          />
          Into another organization (with its own Org Admin token)
        </label>
        {elsewhere && (
          <CustomerFields customer={other} label="OAuth Token of the target organization" name="target-token" />
        )}
        <div className="flex flex-wrap items-end gap-3">
          <Select
            label="Restore into"
            placeholder={elsewhere ? 'Choose a group of that organization' : undefined}
            value={targetAid}
            onChange={(event) => {
              setTargetAid(event.target.value);
              setPlan(null);
            }}
            options={(elsewhere || targetGroups.some((group) => group.aid === backup.aid)
              ? targetGroups
              : [{ aid: backup.aid, accountGroupName: backup.accountGroupName }, ...targetGroups]
            ).map((group) => ({ value: group.aid, label: group.accountGroupName }))}
            fieldClassName="min-w-72"
          />
          <Button className="mb-[2px]" busy={planRestore.isPending} busyLabel="Planning" onClick={() => void preview()}>
            Preview Restore
          </Button>
        </div>
      </div>
      {plan && (
        <div className="space-y-2">
          <table className="w-full text-left text-sm" aria-label="Restore plan">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1">Item</th>
                <th className="py-1">Plan</th>
                <th className="py-1">Details</th>
              </tr>
            </thead>
            <tbody>
              {plan.steps.map((step) => (
                <tr key={`${step.kind}/${step.key}`} className="border-t border-slate-100 align-top">
                  <td className="py-1">
                    {step.name} <span className="text-xs text-slate-500">{step.kind}</span>
                  </td>
                  <td className="py-1">
                    <Badge tone={step.status === 'cannot' ? 'danger' : step.status === 'unchanged' ? 'neutral' : 'sky'}>
                      {step.status}
                    </Badge>
                  </td>
                  <td className="py-1 text-xs text-slate-600">
                    {step.reason ??
                      step.differences
                        .map((field) => `${field.path}: ${field.before ?? '(none)'} → ${field.after ?? '(none)'}`)
                        .join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Button
            variant="primary"
            busy={start.isPending}
            busyLabel="Starting"
            onClick={() =>
              start.mutate(
                { id: backup.id, request: restoreRequest() },
                { onSuccess: (run) => onRestore(run.id, elsewhere ? other.token : '') },
              )
            }
          >
            Apply Restore
          </Button>
        </div>
      )}
    </section>
  );
}
