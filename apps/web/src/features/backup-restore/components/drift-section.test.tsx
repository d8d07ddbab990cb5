import { fireEvent, render, screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import type { Drift } from '@ce/contract';
import { aBackup } from '../backup-fixtures';
import { LIVE, type RestoreFormInput } from '../backup-forms';
import { DriftSection } from './drift-section';
import { CHECKLIST_GROWING_PAGE } from '../../../components/ui/check-list';

const backup = aBackup({
  id: 'backup-1',
  organizationId: 'org-1',
  aid: '1234',
  items: 3,
  size: 100,
  finishedAt: '2026-01-05T10:00:05.000Z',
});
const widget = (title: string, metric = 'WEB_AVAILABILITY') => ({
  dataSource: 'CLOUD_AND_ENTERPRISE_AGENTS',
  metric,
  title,
  type: 'Line Chart',
  visualMode: 'Full',
});
const widgetsBefore = JSON.stringify([
  widget('Latency'),
  widget('Loss'),
  ...Array.from({ length: 40 }, (_, i) => widget(`Filler ${i}`)),
]);
const widgetsAfter = JSON.stringify([
  widget('Loss', 'LOSS'),
  widget('Availability'),
  ...Array.from({ length: 40 }, (_, i) => widget(`Filler ${i}`)),
]);
const change = (name: string, changes: Partial<Drift['changes'][number]> = {}): Drift['changes'][number] => ({
  kind: 'test',
  key: `http-server: ${name}`,
  name,
  change: 'changed',
  fields: [{ path: 'interval', before: '900', after: '1800' }],
  ...changes,
});

function Harness({ drift }: { drift: Drift }) {
  const form = useForm<RestoreFormInput>({
    defaultValues: { against: LIVE, changes: [], items: [], elsewhere: false, aid: '1234' },
  });
  return (
    <DriftSection
      backup={backup}
      others={[]}
      // The panel's form is typed with its output too; the section reads and sets `changes` only.
      form={form as never}
      compared={{ drift, request: { token: 'token' } }}
      comparing={false}
      onCompare={() => undefined}
      onExport={() => undefined}
    />
  );
}

describe('the drift list', () => {
  const dashboard = change('Staging Network Performance', {
    kind: 'dashboard',
    key: 'Staging Network Performance',
    fields: [{ path: 'widgets', before: widgetsBefore, after: widgetsAfter }],
  });
  const drift: Drift = {
    against: 'Acme - Staging, live',
    changes: [
      dashboard,
      change('Portal'),
      change('intranet.example.com - page-load', {
        change: 'renamed',
        name: 'intranet.example.com - page-load RENAMED',
        previousName: 'intranet.example.com - page-load',
      }),
    ],
    counts: {},
  };

  it("says a dashboard's widgets in words, item by item, with the raw JSON one click away and whole", () => {
    render(<Harness drift={drift} />);
    const list = screen.getByRole('list', { name: 'Changes since the backup' });
    expect(list.textContent).toContain(
      "widgets: widget 'Availability' added; widget 'Latency' removed; widget 'Loss': metric: WEB_AVAILABILITY → LOSS",
    );
    const row = within(list).getAllByRole('listitem')[0];
    if (!row) throw new Error('a row per change');
    const raw = within(row).getByText('Raw JSON');
    const pre = row.querySelector('pre');
    expect(pre?.closest('details')?.open).toBe(false);
    fireEvent.click(raw);
    expect(pre?.closest('details')?.open).toBe(true);
    // The values as they are, never cut mid-value.
    expect(pre?.textContent).toContain(JSON.stringify(widgetsBefore));
  });

  it('gives each row the height of what it holds: no fixed row height to paint over the next row', () => {
    render(<Harness drift={drift} />);
    const rows = within(screen.getByRole('list', { name: 'Changes since the backup' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.style.height).toBe('');
      expect(row.style.position).toBe('');
      expect(row.className).not.toMatch(/\b(absolute|h-\d|truncate)\b/);
    }
    expect(rows[2]?.textContent).toContain('(was intranet.example.com - page-load)');
    // Picking a change still names it by its row.
    fireEvent.click(screen.getByRole('checkbox', { name: /Portal/ }));
    expect(screen.getByTestId('picker-count').textContent).toContain('1 selected · 3 shown of 3');
  });

  it('draws a long list a page at a time, and Select All picks every change the search matches', () => {
    const many = Array.from({ length: CHECKLIST_GROWING_PAGE + 5 }, (_, index) => change(`Test ${index}`));
    render(<Harness drift={{ ...drift, changes: many }} />);
    const list = () => screen.getByRole('list', { name: 'Changes since the backup' });
    expect(within(list()).getAllByRole('listitem')).toHaveLength(CHECKLIST_GROWING_PAGE);
    fireEvent.click(screen.getByRole('button', { name: 'Select All Changes' }));
    expect(screen.getByTestId('picker-count').textContent).toContain(`${many.length} selected`);
    fireEvent.click(screen.getByRole('button', { name: 'Show 5 more of 5' }));
    expect(within(list()).getAllByRole('listitem')).toHaveLength(many.length);
  });
});
