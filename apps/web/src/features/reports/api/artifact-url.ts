/** GET /api/reports/:id/artifacts/:artifactId: a file of a report (inline for the HTML preview). */
export const artifactUrl = (reportId: string, artifactId: string, inline = false) =>
  `/api/reports/${reportId}/artifacts/${artifactId}${inline ? '?inline=1' : ''}`;
