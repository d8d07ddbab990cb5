import { Link } from 'react-router';
import { TIMELINE_TOOL_LABELS, WORK_OUTCOME_LABELS, type ChangeActorKind, type TimelineEntry } from '@ce/contract';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { TimelineOutcome } from './timeline-outcome';
import { dateTime } from '../../../lib/dates';

/**
 * Whether what an entry says already names its tool ("Alerts migration", "Undo of a restore", "Backup",
 * "Dashboard … pushed"): then the tool is not said again under it.
 */
export function namesTool(entry: Pick<TimelineEntry, 'what' | 'tool'>): boolean {
  const what = entry.what.toLowerCase();
  const tool = TIMELINE_TOOL_LABELS[entry.tool].toLowerCase();
  const one = tool.replace(/e?s$/, '');
  const first = (words: string) => words.split(' ')[0]?.replace(/e?s$/, '') ?? '';
  return what.includes(one) || first(what) === first(tool);
}

/** Who made a change, in a colour that tells ours from theirs (text dark enough on white). */
const ACTOR_TONE: Record<ChangeActorKind, string> = {
  us: 'font-medium text-brand-800',
  customer: 'font-medium text-amber-900',
  unknown: 'text-slate-700',
};

const COLUMNS: ColumnDef<TimelineEntry, unknown>[] = [
  {
    id: 'when',
    header: 'When',
    accessorFn: (entry) => entry.createdAt,
    cell: ({ row: { original } }) => (
      <time dateTime={original.createdAt} className="whitespace-nowrap">
        {dateTime(original.createdAt)}
      </time>
    ),
  },
  {
    id: 'what',
    header: 'What',
    accessorFn: (entry) => entry.what,
    cell: ({ row: { original } }) => (
      <span className="flex flex-col">
        <Link to={original.path} className="font-medium text-brand-800 underline">
          {original.what}
        </Link>
        {!namesTool(original) && <span className="text-xs text-slate-500">{TIMELINE_TOOL_LABELS[original.tool]}</span>}
      </span>
    ),
  },
  {
    id: 'groups',
    header: 'Account groups',
    accessorFn: (entry) => entry.accountGroups.join(', '),
    cell: ({ getValue }) => String(getValue()) || '—',
  },
  {
    id: 'who',
    header: 'Who',
    accessorFn: (entry) => entry.by?.words ?? entry.watch?.label ?? entry.person.name,
    // A change at the customer says who made it (us, the customer, unknown); a watch's run is the watch's, not its
    // owner's by hand: said first, the owner under it.
    cell: ({ row: { original } }) =>
      original.by ? (
        <span className={ACTOR_TONE[original.by.kind]} data-testid="change-actor" data-actor={original.by.kind}>
          {original.by.words}
        </span>
      ) : original.watch ? (
        <span className="flex flex-col" data-testid="watch-mark">
          <span className="font-medium text-purple-800">{original.watch.label}</span>
          <span className="text-xs text-slate-600" title={original.person.email}>
            watch of {original.person.name}
          </span>
        </span>
      ) : (
        <span title={original.person.email}>{original.person.name}</span>
      ),
  },
  {
    id: 'status',
    header: 'Status',
    accessorFn: (entry) => WORK_OUTCOME_LABELS[entry.outcome],
    cell: ({ row: { original } }) => <TimelineOutcome outcome={original.outcome} />,
  },
];

/**
 * The customer's timeline as a table, newest first (its columns sort). The customer page loads it on its own, after
 * the page's first paint: the table library is not among the scripts the page needs before it can show the customer.
 */
export function TimelineTable({ name, entries, empty }: { name: string; entries: TimelineEntry[]; empty: string }) {
  return (
    <DataTable
      label={`Work for ${name}`}
      data={entries}
      columns={COLUMNS}
      getRowId={(entry) => `${entry.tool}:${entry.id}`}
      initialSorting={[{ id: 'when', desc: true }]}
      empty={empty}
      rowProps={(entry) => ({ 'data-testid': 'timeline-row', 'data-tool': entry.tool })}
    />
  );
}
