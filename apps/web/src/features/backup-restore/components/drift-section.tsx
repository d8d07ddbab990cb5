import { useMemo } from 'react';
import { useController } from 'react-hook-form';
import { restoreItemRef, type Backup, type Drift, type DriftRequest } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';
import { CheckList } from '../../../components/ui/check-list';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { LIVE, type RestoreFormApi } from '../backup-forms';
import { FieldList } from './field-list';
import { dateTime } from '../../../lib/dates';

type Change = Drift['changes'][number];
const WORDS = {
  added: 'added since',
  removed: 'deleted since',
  changed: 'changed since',
  renamed: 'renamed since',
} as const;

function ChangeRow({ change }: { change: Change }) {
  return (
    <span className="grid min-w-0 flex-1 gap-0.5">
      <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <span className="min-w-0 font-medium [overflow-wrap:anywhere]">{change.name}</span>
        {change.previousName && (
          <span className="min-w-0 text-slate-600 [overflow-wrap:anywhere]">(was {change.previousName})</span>
        )}
        <Badge tone="neutral" className="shrink-0">
          {change.kind}
        </Badge>
        <Badge
          tone={change.change === 'removed' ? 'danger' : change.change === 'added' ? 'sky' : 'amber'}
          className="shrink-0"
        >
          {WORDS[change.change]}
        </Badge>
      </span>
      {change.fields.length > 0 && <FieldList fields={change.fields} />}
    </span>
  );
}

/** A backup compared with the live group or another backup: what was added, deleted, changed, and exports. */
export function DriftSection({
  backup,
  others,
  form,
  compared,
  comparing,
  onCompare,
  onExport,
}: {
  backup: Backup;
  /** The other finished backups of the same group. */
  others: Backup[];
  form: RestoreFormApi;
  compared: { drift: Drift; request: DriftRequest } | null;
  comparing: boolean;
  onCompare: () => void;
  onExport: (format: 'xlsx' | 'html') => void;
}) {
  const { field: changesPicked } = useController({ control: form.control, name: 'changes' });
  const selected = useMemo(() => new Set(changesPicked.value), [changesPicked.value]);
  const changes = compared?.drift.changes ?? [];
  return (
    <>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Compare with"
          {...form.register('against')}
          options={[
            { value: LIVE, label: `${backup.accountGroupName} as it is now` },
            ...others.map((other) => ({
              value: other.id,
              label: `The backup of ${dateTime(other.createdAt)}`,
            })),
          ]}
          fieldClassName="w-full sm:w-auto sm:min-w-72"
        />
        <Button variant="primary" className="mb-[2px]" busy={comparing} busyLabel="Comparing" onClick={onCompare}>
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
              rows="growing"
              height="32rem"
              items={changes}
              itemKey={restoreItemRef}
              renderItem={(change) => <ChangeRow change={change} />}
              matches={(change, needle) => `${change.kind} ${change.name}`.toLowerCase().includes(needle)}
              selected={selected}
              onSelectedChange={(next) => changesPicked.onChange([...next])}
              label="Changes since the backup"
              searchLabel="Search changes"
              noun="Changes"
              data-testid="changes"
            />
          )}
          <div className="flex flex-wrap gap-2">
            {(['xlsx', 'html'] as const).map((format) => (
              <Button key={format} size="sm" onClick={() => onExport(format)}>
                Export {format.toUpperCase()}
              </Button>
            ))}
          </div>
        </div>
      )}
    </>
  );
}
