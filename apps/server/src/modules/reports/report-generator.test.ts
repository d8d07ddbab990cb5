import { describe, expect, it } from 'vitest';
import { mdSafe } from '../../report-kit/markdown.js';
import { utcMinute, utcMinuteOf } from '../../report-kit/dates.js';
import { groupByGroupReport, reportFiles, type ReportContext } from './report-generator.js';

function contextWith(groups: { aid: string; accountGroupName: string }[]) {
  const steps: [number, number][] = [];
  const context = {
    platform: {} as ReportContext['platform'],
    organization: { id: '9000', name: 'Acme *Corp*' },
    accountGroups: groups,
    options: {},
    requestedBy: 'tam@demo.local',
    now: new Date('2026-12-01T09:30:45Z'),
    progress: async (done: number, total: number) => {
      steps.push([done, total]);
    },
  } satisfies ReportContext;
  return { context, steps };
}

describe('the report-kind kit', () => {
  it('reads each group in turn, one step each and one for the files, then names the files by kind, organization and day', async () => {
    const { context, steps } = contextWith([
      { aid: '1', accountGroupName: 'Production' },
      { aid: '2', accountGroupName: 'Staging' },
    ]);
    const read: string[] = [];
    const generate = groupByGroupReport({
      kind: 'tests-without-rules',
      read: async (_context, group) => {
        read.push(group.aid);
        return group.accountGroupName.length;
      },
      write: async ({ organization }, lengths) => ({
        summary: mdSafe`**${organization.name}**: ${lengths.join(' + ')}`,
        files: { xlsx: Buffer.from('book'), html: '<p>é</p>' },
      }),
    });
    const report = await generate(context);
    expect(read).toEqual(['1', '2']);
    expect(steps).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(report.summaryMarkdown).toBe('**Acme \\*Corp\\***: 10 \\+ 7');
    expect(report.artifacts.map(({ filename, contentType }) => [filename, contentType])).toEqual([
      [
        'tests-without-rules-Acme-Corp-2026-12-01.xlsx',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ],
      ['tests-without-rules-Acme-Corp-2026-12-01.html', 'text/html; charset=utf-8'],
    ]);
    expect(report.artifacts[1]?.content.toString('utf8')).toBe('<p>é</p>');
  });

  it('reads the groups a kind chooses itself when it has its own', async () => {
    const { context, steps } = contextWith([]);
    const generate = groupByGroupReport({
      kind: 'windows',
      groups: async () => [{ aid: '7', accountGroupName: 'All' }],
      read: async (_context, group) => group.aid,
      write: async (_context, aids) => ({ summary: mdSafe`${aids.join()}`, files: { pdf: Buffer.from('%PDF') } }),
    });
    const report = await generate(context);
    expect(steps).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(report.summaryMarkdown).toBe('7');
    expect(reportFiles(context, 'x', { json: '{}' })[0]).toMatchObject({
      filename: 'x-Acme-Corp-2026-12-01.json',
      contentType: 'application/json',
    });
  });

  it('prints moments to the minute in UTC', () => {
    expect(utcMinute(new Date('2026-12-01T09:30:45.123Z'))).toBe('2026-12-01 09:30 UTC');
    // The platform's stamps: in UTC whatever offset they carry, and an unreadable one as it came.
    expect(utcMinuteOf('2026-12-01T11:30:00+02:00')).toBe('2026-12-01 09:30 UTC');
    expect(utcMinuteOf('not a date')).toBe('not a date');
  });
});
