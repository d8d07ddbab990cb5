import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ANSWER_SUITE_DATABASES, reportFile, requestReport, reportSuite } from './build-test-app.js';

/** The text of a Word file's body: word/document.xml with its tags removed, runs joined. */
function wordText(docx: Buffer): string {
  const files = unzipSync(new Uint8Array(docx));
  const xml = strFromU8(files['word/document.xml'] ?? new Uint8Array());
  return xml
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;

describe.each(ANSWER_SUITE_DATABASES)('the PS closure documents (%s)', (database) => {
  const suite = reportSuite(database, 'proserv@demo.local', { rateLimitPerMinute: 100_000 });

  const produce = async (kind: string, options: Record<string, unknown>) => {
    const chosen = suite.customer.groups.slice(0, 2);
    const report = await requestReport(suite.client, suite.customer, kind, { options, accountGroups: chosen });
    expect(report.status, report.error ?? '').toBe('done');
    return {
      chosen,
      docx: await reportFile(suite.client, report, '.docx'),
      pdf: await reportFile(suite.client, report, '.pdf'),
    };
  };

  it('AS Built: an editable Word document and a PDF with every section, the units of the world and the details given', async () => {
    const { chosen, docx, pdf } = await produce('closure-units', {
      engagementName: 'Acme network visibility 2026',
      customerContact: 'Dana Customer <dana@acme.example.com>',
      notes: 'Two branch agents are still to be installed by the customer.',
    });
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const text = wordText(docx);
    for (const section of [
      'AS Built Closure Document',
      'Executive summary',
      'Scope',
      'What was deployed',
      'Tests by type',
      'Health findings',
      'Outstanding items and risks',
      'Handover',
      'Notes',
      'Sign-off',
      'Acme network visibility 2026',
      'Dana Customer <dana@acme.example.com>',
      'Two branch agents are still to be installed by the customer.',
      'proserv@demo.local',
    ])
      expect(text, section).toContain(section);
    const world = suite.app.sandbox?.platform.world;
    const aids = new Set(chosen.map((group) => group.aid));
    const tests = world?.tests.filter((test) => aids.has(test.aid)) ?? [];
    const enterprise =
      world?.agents.filter((agent) => agent.agentType === 'enterprise' && agent.aids.some((aid) => aids.has(aid))) ??
      [];
    expect(text).toContain(`Tests (${tests.length})`);
    expect(text).toContain(`Enterprise agents (${enterprise.length})`);
    expect(text).toContain(`Alert rules (${world?.alertRules.filter((rule) => aids.has(rule.aid)).length})`);
    for (const test of tests.slice(0, 5)) expect(text).toContain(test.testName);
    // The health check's findings are inline, with their titles.
    expect(text).toContain('Dashboards with fewer than two widgets');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(3);
  });

  it('Endpoints: agents, labels and endpoint tests of the world, and no optional section without its details', async () => {
    const { chosen, docx, pdf } = await produce('closure-endpoints', {});
    const text = wordText(docx);
    const world = suite.app.sandbox?.platform.world;
    const aids = new Set(chosen.map((group) => group.aid));
    const agents = world?.endpointAgents.filter((agent) => aids.has(agent.aid)) ?? [];
    const tests =
      (world?.endpointTests.filter((test) => aids.has(test.aid)).length ?? 0) +
      (world?.endpointDynamicTests.filter((test) => aids.has(test.aid)).length ?? 0);
    expect(text).toContain('Endpoints Closure Document');
    expect(text).toContain(`Endpoint agents (${agents.length})`);
    expect(text).toContain(`Endpoint tests (${tests})`);
    expect(text).toContain('Endpoint agents by platform');
    expect(text).not.toContain('Engagement:');
    expect(text).not.toMatch(/^Notes$/m);
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(3);
  });

  it('refuses details that are too long', async () => {
    const created = await suite.client.request({
      method: 'POST',
      url: '/api/reports',
      payload: {
        kind: 'closure-units',
        token: suite.customer.token,
        organization: suite.customer.organization,
        accountGroups: suite.customer.groups.slice(0, 1),
        options: { engagementName: 'x'.repeat(201) },
      },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.message).toBe('At most 200 characters');
  });
});
