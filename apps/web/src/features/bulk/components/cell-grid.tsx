import type { BulkAccountGroup } from '@ce/contract';

export interface GridCell {
  /** create | exists | blocked for a plan; pending | running | done | skipped | failed for a run. */
  status: string;
  label: string;
  detail?: string | null;
}

const TONE: Record<string, string> = {
  create: 'bg-blue-50 text-blue-800',
  exists: 'bg-amber-50 text-amber-800',
  blocked: 'bg-red-50 text-red-800',
  pending: 'bg-slate-50 text-slate-600',
  running: 'bg-blue-100 text-blue-800',
  done: 'bg-green-100 text-green-800',
  skipped: 'bg-amber-50 text-amber-800',
  failed: 'bg-red-100 text-red-800',
};

export interface CellGridProps {
  caption: string;
  templateNames: string[];
  groups: BulkAccountGroup[];
  cell: (templateIndex: number, aid: string) => GridCell | undefined;
}

/** Template x account group: one cell per test, for the plan before a run and the progress during it. */
export function CellGrid({ caption, templateNames, groups, cell }: CellGridProps) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table className="min-w-full text-left text-sm">
        <caption className="px-3 py-2 text-left font-medium text-slate-700">{caption}</caption>
        <thead className="bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="px-3 py-2">Template</th>
            {groups.map((group) => (
              <th key={group.aid} className="px-3 py-2">
                {group.accountGroupName}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {templateNames.map((name, templateIndex) => (
            <tr key={`${templateIndex}-${name}`} className="border-t border-slate-100">
              <th className="px-3 py-1.5 font-medium">{name}</th>
              {groups.map((group) => {
                const value = cell(templateIndex, group.aid);
                return (
                  <td
                    key={group.aid}
                    data-testid={`cell-${templateIndex}-${group.aid}`}
                    data-status={value?.status ?? 'none'}
                    title={value?.detail ?? undefined}
                    className={`px-3 py-1.5 ${value ? (TONE[value.status] ?? '') : 'text-slate-400'}`}
                  >
                    {value?.label ?? '—'}
                    {value?.detail && <span className="block text-xs">{value.detail}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
