import { useCallback, useState } from 'react';
import { ApiRequestError } from '../../../lib/api-client';
import { artifactUrl } from '../../../lib/report-files';
import { useReports } from '../api/reports';
import { ReportWizard } from './report-wizard';

/** The maintenance report's own failure texts (spec section 8). */
export function maintenanceFailure(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return 'Failed to send Maintenance Window Report request';
  switch (error.status) {
    case 0:
      return 'Cannot connect to server. This could be a CORS issue or network problem.';
    case 504:
      return 'Request timed out. The server is taking too long to respond.';
    case 404:
      return 'The maintenance window report endpoint was not found (404).';
    case 500:
      return 'Server internal error (500). Check the server logs for details.';
    case 502:
    case 503:
      return 'The server is temporarily unavailable. Please try again later.';
    default:
      return error.message || `Server error: ${error.code} (${error.status})`;
  }
}

export function MaintenanceWindow() {
  const [isOpen, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const reports = useReports('mine');
  const latest = reports.data?.find((report) => report.kind === 'maintenance-window');
  const html = latest?.artifacts.find((artifact) => artifact.contentType.startsWith('text/html'));
  const pdf = latest?.artifacts.find((artifact) => artifact.contentType === 'application/pdf');

  return (
    <section className="max-w-5xl space-y-4">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-semibold">Maintenance Window Report</h1>
        <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">Beta</span>
      </div>
      <p className="text-slate-600">
        Lists the alert suppression windows of a customer organization: what each covers, when it runs and repeats, and
        whether it is in effect now, upcoming or expired. Use it before planned work to check that the right tests are
        silenced, and after it to clean up windows that are no longer needed.
      </p>
      <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        Disclaimer: the report reflects the platform&apos;s configuration when it was produced. Times are in UTC; check
        with the customer before changing their maintenance windows.
      </p>
      <button
        type="button"
        className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800"
        onClick={() => setOpen(true)}
      >
        Maintenance Report
      </button>
      <ReportWizard
        mission={isOpen ? 'maintenance-window' : null}
        title="Maintenance Window Report"
        onClose={close}
        failureMessage={maintenanceFailure}
      />

      {latest && (latest.status === 'queued' || latest.status === 'running') && (
        <p className="text-sm text-slate-600" role="status">
          Producing the report for {latest.organizationName}… ({latest.progress.done}/{latest.progress.total || '?'})
        </p>
      )}
      {latest?.status === 'failed' && <p className="text-sm text-red-700">{latest.error}</p>}
      {latest?.status === 'done' && html && (
        <div className="space-y-2">
          <div className="flex items-center gap-3">
            <h2 className="text-lg font-medium">{latest.organizationName}</h2>
            {pdf && (
              <a
                href={artifactUrl(latest.id, pdf.id)}
                download={pdf.filename}
                className="ml-auto rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50"
              >
                Download PDF
              </a>
            )}
          </div>
          {/* The report is isolated: a sandboxed frame with no scripts, served with a sandbox CSP. */}
          <iframe
            title="Maintenance window report"
            sandbox=""
            src={artifactUrl(latest.id, html.id, true)}
            className="h-[36rem] w-full rounded-md border border-slate-200 bg-white"
          />
        </div>
      )}
    </section>
  );
}
