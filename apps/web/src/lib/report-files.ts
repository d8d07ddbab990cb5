import type { ReportRequest } from '@ce/contract';

/** GET /api/reports/:id/artifacts/:artifactId: a file of a report (inline for the HTML preview). */
export const artifactUrl = (reportId: string, artifactId: string, inline = false) =>
  `/api/reports/${reportId}/artifacts/${artifactId}${inline ? '?inline=1' : ''}`;

/** How far a report has come, in percent of its steps (a finished one without steps: 100). */
export const reportPercent = (report: Pick<ReportRequest, 'progress' | 'status'>) =>
  report.progress.total
    ? Math.round((report.progress.done / report.progress.total) * 100)
    : report.status === 'done'
      ? 100
      : 0;
