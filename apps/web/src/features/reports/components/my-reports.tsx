import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { REPORT_KINDS, type ReportRequest } from '@ce/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { JobLine } from '../../../components/ui/job-line';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Dialog } from '../../../components/ui/dialog';
import { artifactUrl, reportPercent } from '../../../lib/report-files';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useSession } from '../../../lib/session';
import { useReports } from '../api/reports';
import { RerunForm } from './rerun-form';
import { dateTime } from '../../../lib/dates';

const STATUS_TONE: Record<ReportRequest['status'], BadgeTone> = {
  queued: 'neutral',
  running: 'sky',
  done: 'success',
  failed: 'danger',
};

/** A report's state; `you` is the signed-in user's email (someone else's report was sent to them, not to you). */
function StatusCell({ report, you }: { report: ReportRequest; you: string | undefined }) {
  const percent = reportPercent(report);
  return (
    <div className="min-w-32 space-y-1">
      <Badge tone={STATUS_TONE[report.status]} data-testid="report-status">
        {report.status}
      </Badge>
      {(report.status === 'queued' || report.status === 'running') && (
        <ProgressBar percent={percent} label="Progress" />
      )}
      <JobLine
        status={report.status}
        ahead={report.ahead}
        organizationName={report.organizationName}
        done={report.progress.done}
        total={report.progress.total}
        unit="steps"
      />
      {report.error && <p className="text-sm text-red-700">{report.error}</p>}
      {report.status === 'done' && report.delivery.status === 'delivered' && (
        <p className="text-xs text-slate-500">
          {report.requestedBy === you ? 'Sent to you in Webex.' : `Sent to ${report.requestedBy} in Webex.`}
        </p>
      )}
      {report.status === 'done' && report.delivery.status === 'pending' && report.delivery.error && (
        <p className="text-xs text-amber-700">
          Not sent in Webex yet: {report.delivery.error}. It is tried again; the files are here meanwhile.
        </p>
      )}
      {report.status === 'done' && report.delivery.status === 'failed' && (
        <p className="text-xs text-amber-700">
          Not sent in Webex: {report.delivery.error}. Download the files instead.
        </p>
      )}
    </div>
  );
}

/** The report's HTML in a dialog: a sandboxed frame (no scripts) of the file served with a sandbox CSP. */
function HtmlView({ report }: { report: ReportRequest }) {
  const [open, setOpen] = useState(false);
  const html = report.artifacts.find((artifact) => artifact.contentType.startsWith('text/html'));
  if (report.status !== 'done' || !html) return null;
  const title = `${REPORT_KINDS[report.kind].label}: ${report.organizationName}`;
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        View report
      </Button>
      <Dialog title={title} isOpen={open} onClose={() => setOpen(false)} width="max-w-6xl" fullScreenOnPhone>
        <iframe
          title={title}
          sandbox=""
          src={artifactUrl(report.id, html.id, true)}
          className="h-[70vh] w-full rounded-md border border-slate-200 bg-white max-md:h-auto max-md:min-h-0 max-md:flex-1 max-md:rounded-none max-md:border-0"
        />
      </Dialog>
    </>
  );
}

/** A file's type as its name ends ("PDF", "XLSX", "JSON"), for a compact button. */
const fileType = (filename: string) => /\.(\w+)$/.exec(filename)?.[1]?.toUpperCase() ?? filename;

function FilesCell({ report, rerunning, onRerun }: { report: ReportRequest; rerunning: boolean; onRerun: () => void }) {
  const finished = report.status === 'done' || report.status === 'failed';
  return (
    <div className="space-y-2">
      <HtmlView report={report} />
      {report.artifacts.length > 0 && (
        <div className="flex flex-wrap gap-1.5 md:gap-2">
          {report.artifacts.map((artifact) => (
            <a
              key={artifact.id}
              href={artifactUrl(report.id, artifact.id)}
              download={artifact.filename}
              aria-label={`Download ${artifact.filename}`}
              title={artifact.filename}
              className="rounded border border-slate-300 px-1.5 py-1 text-sm text-brand-800 hover:bg-slate-50 md:px-2"
            >
              {/* On a phone the file's type alone (its whole name is the link's name): four files on one line. */}
              <span className="md:hidden">{fileType(artifact.filename)}</span>
              <span className="max-md:hidden">Download {artifact.filename}</span>
            </a>
          ))}
        </div>
      )}
      {finished && (
        <Button variant="link" size="sm" aria-expanded={rerunning} onClick={onRerun}>
          Run again
        </Button>
      )}
      {finished && rerunning && <RerunForm report={report} onDone={onRerun} />}
    </div>
  );
}

/** The user's report requests with live progress, errors in plain words, downloads and 'Run again'. */
export function MyReports({ canSeeEveryone }: { canSeeEveryone: boolean }) {
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  // The report a link opened (?report=<id>, "Open in My Reports" after a request): its row is marked.
  const opened = useSearchParams()[0].get('report');
  const [rerunning, setRerunning] = useState<string | null>(null);
  const reports = useReports(scope);
  const you = useSession().data?.email;
  // A colleague's report opened by link, by someone who may see everyone's: everyone's are shown, once per link (the
  // box can be unticked again).
  const [widenedFor, setWidenedFor] = useState<string | null>(null);
  if (
    canSeeEveryone &&
    opened !== null &&
    widenedFor !== opened &&
    scope === 'mine' &&
    reports.isSuccess &&
    !reports.data.some((report) => report.id === opened)
  ) {
    setWidenedFor(opened);
    setScope('all');
  }

  const columns = useMemo<ColumnDef<ReportRequest, unknown>[]>(
    () => [
      {
        id: 'report',
        header: 'Report',
        accessorFn: (report) => `${REPORT_KINDS[report.kind].label} ${report.organizationName} ${report.requestedBy}`,
        sortingFn: (a, b) => REPORT_KINDS[a.original.kind].label.localeCompare(REPORT_KINDS[b.original.kind].label),
        cell: ({ row: { original: report } }) => (
          <div>
            <p className="font-medium">{REPORT_KINDS[report.kind].label}</p>
            <p className="text-slate-600">
              {report.organizationName}
              {report.accountGroups.length > 0 &&
                ` · ${report.accountGroups.length} account ${report.accountGroups.length === 1 ? 'group' : 'groups'}`}
            </p>
            {scope === 'all' && <p className="text-xs text-slate-500">{report.requestedBy}</p>}
          </div>
        ),
      },
      {
        id: 'requested',
        header: 'Requested',
        accessorFn: (report) => report.createdAt,
        cell: ({ row: { original: report } }) => (
          <time dateTime={report.createdAt} className="text-slate-600 md:whitespace-nowrap">
            {dateTime(report.createdAt)}
          </time>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        accessorFn: (report) => report.status,
        cell: ({ row: { original: report } }) => <StatusCell report={report} you={you} />,
      },
      {
        id: 'files',
        header: 'Files',
        enableSorting: false,
        enableGlobalFilter: false,
        cell: ({ row: { original: report } }) => (
          <FilesCell
            report={report}
            rerunning={rerunning === report.id}
            onRerun={() => setRerunning((current) => (current === report.id ? null : report.id))}
          />
        ),
      },
    ],
    [scope, rerunning, you],
  );

  return (
    <section className="max-w-6xl space-y-4">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold">My Reports</h1>
        {canSeeEveryone && (
          <label className="ml-auto flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={scope === 'all'}
              onChange={(event) => setScope(event.target.checked ? 'all' : 'mine')}
            />
            Everyone&apos;s reports
          </label>
        )}
      </div>
      <p className="text-slate-600">
        {scope === 'all'
          ? "Everyone's reports, their progress, and their files to download once they are done."
          : 'Every report you requested, its progress, and its files to download once it is done.'}
      </p>
      <DataTable
        label="Reports"
        data={reports.data ?? []}
        columns={columns}
        getRowId={(report) => report.id}
        initialSorting={[{ id: 'requested', desc: true }]}
        filterLabel="Search reports"
        empty={
          reports.isPending
            ? 'Loading…'
            : reports.isError
              ? 'The reports could not be loaded.'
              : 'No report requested yet. Open a report tool to request one.'
        }
        rowProps={(report) => ({
          'data-testid': 'report-row',
          'data-status': report.status,
          'data-highlight': report.id === opened ? 'true' : undefined,
          'aria-current': report.id === opened ? 'true' : undefined,
        })}
      />
    </section>
  );
}
