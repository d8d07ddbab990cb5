import { diagnosticReportSchema, type DiagnosticReport, type SessionUser } from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import { mdLines, mdSafe } from '../../report-kit/markdown.js';
import type { WebexClient } from '../../adapters/webex-client.js';
import { escapeHtml, htmlDocument } from '../../report-kit/html.js';
import { platformRefusal } from '../customer/customer.service.js';
import { diagnose } from './diagnostics.js';
import type { DiagnosticsRepository } from './diagnostics.repository.js';

const STATUS_WORDS = { pass: 'Pass', warn: 'Warn', fail: 'Fail', unknown: 'Unknown' } as const;

/** The diagnostic tool: runs (the token used once, never kept), downloads and Webex. */
export class DiagnosticsService {
  constructor(
    private readonly deps: { repository: DiagnosticsRepository; platform: PlatformClient; webex: WebexClient | null },
  ) {}

  async run(user: SessionUser, token: string): Promise<DiagnosticReport> {
    const { repository } = this.deps;
    const id = await repository.start(user.id);
    try {
      const report = await diagnose(this.deps.platform, token, id);
      await repository.finish(id, report);
      return report;
    } catch (error) {
      await repository.remove(id);
      throw platformRefusal(error);
    }
  }

  async report(user: SessionUser, id: string): Promise<DiagnosticReport> {
    const parsed = diagnosticReportSchema.safeParse(await this.deps.repository.find(id, user.id));
    if (!parsed.success) throw new AppError(404, 'not_found', 'This diagnostic is not kept any more.');
    return parsed.data;
  }

  async send(user: SessionUser, id: string, email: string): Promise<void> {
    const webex = this.deps.webex;
    if (!webex) throw new AppError(503, 'webex_not_configured', 'Webex is not configured on this server.');
    const report = await this.report(user, id);
    await webex.send(email, diagnosticMarkdown(report, user.email), {
      filename: `diagnostic-${report.generatedAt.slice(0, 10)}.html`,
      contentType: 'text/html',
      content: Buffer.from(diagnosticHtml(report)),
    });
  }
}

/** The Webex message: every value from the token's organization or the platform escaped. */
export function diagnosticMarkdown(report: DiagnosticReport, from: string): string {
  const worst = report.checks.filter((item) => item.status === 'fail' || item.status === 'warn');
  const identity = report.identity;
  const admin = identity?.isOrgAdmin ? mdSafe`, Organization Admin` : '';
  return mdLines([
    mdSafe`**Diagnostic of a customer token** (run by ${from}, ${report.generatedAt})`,
    identity ? mdSafe`- ${identity.name} <${identity.email}>${admin}` : mdSafe`- identity unknown`,
    mdSafe`- ${report.organizations.join(', ')}: ${report.accountGroups.length} account groups`,
    ...report.checks.map((item) => mdSafe`- ${STATUS_WORDS[item.status]}: ${item.title}: ${item.detail}`),
    worst.length === 0 && mdSafe`- Nothing to fix.`,
  ]).text;
}

export function diagnosticHtml(report: DiagnosticReport): string {
  const rows = (cells: string[][]) =>
    cells.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('');
  const table = (head: string[], cells: string[][]) =>
    `<table><thead><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows(cells)}</tbody></table>`;
  return htmlDocument(
    'Token diagnostic',
    [
      `<h1>Token diagnostic</h1><p>${escapeHtml(report.generatedAt)}</p>`,
      report.identity
        ? `<p>${escapeHtml(report.identity.name)} &lt;${escapeHtml(report.identity.email)}&gt;${report.identity.isOrgAdmin ? ', Organization Admin' : ''}</p>`
        : '<p>Identity unknown</p>',
      '<h2>Checks</h2>',
      table(
        ['Status', 'Check', 'Detail', 'Items'],
        report.checks.map((item) => [STATUS_WORDS[item.status], item.title, item.detail, item.items.join('; ')]),
      ),
      '<h2>Toolkit tools</h2>',
      table(
        ['Tool', 'Ready', 'Missing'],
        report.tools.map((tool) => [tool.tool, tool.ready ? 'yes' : 'no', tool.missing.join(', ')]),
      ),
      '<h2>Permissions</h2>',
      table(
        ['Permission', 'Status', 'How we know'],
        report.permissions.map((item) => [item.name, item.status, item.via]),
      ),
      '<h2>Account groups</h2>',
      table(
        ['Account group', 'aid', 'Organization', 'Roles'],
        report.accountGroups.map((group) => [
          group.accountGroupName,
          group.aid,
          group.organizationName,
          report.identity
            ? report.identity.roles.find((entry) => entry.aid === group.aid)?.roles.join(', ') || 'no role'
            : 'unknown',
        ]),
      ),
      '<h2>Platform</h2>',
      `<p>Answer time ${report.platform.answerMs} ms; rate limit ${report.platform.rateLimit ? `${report.platform.rateLimit.remaining} of ${report.platform.rateLimit.limit} left` : 'not reported'}.</p>`,
    ].join('\n'),
  );
}
