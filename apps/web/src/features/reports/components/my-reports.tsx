import { useState } from 'react';
import { REPORT_KINDS, type ReportRequest } from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { ApiRequestError } from '../../../lib/api-client';
import { artifactUrl } from '../api/artifact-url';
import { useReports } from '../api/reports';
import { useRerunReport } from '../api/rerun-report';

const STATUS_STYLE: Record<ReportRequest['status'], string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  done: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
};

function RerunForm({ report, onDone }: { report: ReportRequest; onDone: () => void }) {
  const [token, setToken] = useState('');
  const rerun = useRerunReport();
  return (
    <form
      className="mt-2 flex gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!token.trim()) {
          toast.error('Please provide a valid OAuth token');
          return;
        }
        rerun.mutate(
          { id: report.id, token: token.trim() },
          {
            onSuccess: () => {
              toast.success('Report Requested Successfully');
              onDone();
            },
            onError: (error) =>
              toast.error(error instanceof ApiRequestError ? error.message : 'Could not run the report again'),
          },
        );
      }}
    >
      <input
        type="password"
        aria-label="OAuth token for the new run"
        placeholder="Paste the OAuth token again"
        value={token}
        onChange={(event) => setToken(event.target.value)}
        className="flex-1 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
      />
      <button type="submit" disabled={rerun.isPending} className="rounded-md bg-brand-700 px-3 py-1 text-sm text-white">
        Run
      </button>
    </form>
  );
}

/** The user's report requests with live progress, errors in plain words, downloads and 'Run again'. */
export function MyReports({ canSeeEveryone }: { canSeeEveryone: boolean }) {
  const [scope, setScope] = useState<'mine' | 'all'>('mine');
  const [rerunning, setRerunning] = useState<string | null>(null);
  const reports = useReports(scope);
  return (
    <section className="max-w-5xl space-y-4">
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
        Every report you requested, its progress, and its files to download once it is done.
      </p>
      {reports.isPending && <p className="text-sm text-slate-500">Loading…</p>}
      {reports.data?.length === 0 && (
        <p className="text-sm text-slate-500">No report requested yet. Open a report tool to request one.</p>
      )}
      <ul className="space-y-3" aria-label="Reports">
        {reports.data?.map((report) => {
          const percent = report.progress.total
            ? Math.round((report.progress.done / report.progress.total) * 100)
            : report.status === 'done'
              ? 100
              : 0;
          return (
            <li
              key={report.id}
              data-testid="report-row"
              data-status={report.status}
              className="rounded-lg border border-slate-200 bg-white p-4"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium">{REPORT_KINDS[report.kind].label}</span>
                <span className="text-slate-500">· {report.organizationName}</span>
                {report.accountGroups.length > 0 && (
                  <span className="text-slate-500">· {report.accountGroups.length} account group(s)</span>
                )}
                <span
                  className={`ml-auto rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[report.status]}`}
                  data-testid="report-status"
                >
                  {report.status}
                </span>
              </div>
              <p className="mt-1 text-xs text-slate-500">
                {new Date(report.createdAt).toLocaleString()}
                {scope === 'all' && ` · ${report.requestedBy}`}
              </p>
              {(report.status === 'queued' || report.status === 'running') && (
                <div
                  className="mt-2 h-2 overflow-hidden rounded bg-slate-100"
                  role="progressbar"
                  aria-valuenow={percent}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-label="Progress"
                >
                  <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
                </div>
              )}
              {report.error && <p className="mt-2 text-sm text-red-700">{report.error}</p>}
              {report.status === 'done' && (
                <p className="mt-1 text-xs text-slate-500">
                  {report.delivery.status === 'delivered' && 'Sent to you in Webex.'}
                  {report.delivery.status === 'failed' && (
                    <span className="text-amber-700">
                      Not sent in Webex: {report.delivery.error}. Download it below.
                    </span>
                  )}
                </p>
              )}
              {report.artifacts.length > 0 && (
                <div className="mt-2 flex flex-wrap gap-2">
                  {report.artifacts.map((artifact) => (
                    <a
                      key={artifact.id}
                      href={artifactUrl(report.id, artifact.id)}
                      download={artifact.filename}
                      className="rounded border border-slate-300 px-2 py-1 text-sm text-brand-800 hover:bg-slate-50"
                    >
                      Download {artifact.filename}
                    </a>
                  ))}
                </div>
              )}
              {(report.status === 'done' || report.status === 'failed') && (
                <div className="mt-2">
                  <button
                    type="button"
                    className="text-sm text-brand-700 underline"
                    onClick={() => setRerunning(rerunning === report.id ? null : report.id)}
                  >
                    Run again
                  </button>
                  {rerunning === report.id && <RerunForm report={report} onDone={() => setRerunning(null)} />}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
