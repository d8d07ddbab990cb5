import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RestorePlan } from '@ce/contract';
import { RestorePlanView } from './restore-plan-view';

type Step = RestorePlan['steps'][number];
const step = (changes: Partial<Step>): Step => ({
  kind: 'test',
  key: 'http-server: Portal',
  name: 'Portal',
  status: 'unchanged',
  phase: 0,
  differences: [],
  dropped: [],
  reason: null,
  ...changes,
});
const plan = (steps: Step[]): RestorePlan => ({ accountGroupName: 'Acme - Staging', steps });

describe('the restore plan', () => {
  it('says a test renamed since the backup is renamed back, with its other changes in words', () => {
    const renamed = step({
      key: 'page-load: intranet.example.com - page-load',
      name: 'intranet.example.com - page-load',
      previousName: 'intranet.example.com - page-load RENAMED',
      status: 'update',
      differences: [
        { path: 'interval', before: '1800', after: '900' },
        {
          path: 'testName',
          before: 'intranet.example.com - page-load RENAMED',
          after: 'intranet.example.com - page-load',
        },
      ],
    });
    render(<RestorePlanView plan={plan([renamed])} starting={false} onApply={async () => undefined} />);
    const table = screen.getByRole('table', { name: 'Restore plan' });
    expect(within(table).getByTestId('renamed-back').textContent).toContain(
      "renamed back from 'intranet.example.com - page-load RENAMED' to 'intranet.example.com - page-load'",
    );
    expect(table.textContent).toContain('interval: 1800 → 900');
    expect(table.textContent).not.toContain('testName:');
    // The raw differences, the name's too, one click away.
    expect(table.querySelector('pre')?.textContent).toContain('"path": "testName"');
    fireEvent.click(screen.getByRole('button', { name: 'Apply Restore' }));
    expect(screen.getByRole('dialog', { name: 'Restore into Acme - Staging?' }).textContent).toContain(
      'This updates 1 item in Acme - Staging.',
    );
  });

  it('offers no restore when nothing would change, and says so', () => {
    render(<RestorePlanView plan={plan([step({})])} starting={false} onApply={async () => undefined} />);
    expect(screen.getByRole('status').textContent).toContain(
      'Nothing to restore: the chosen items are as the backup has them.',
    );
    expect(screen.queryByRole('button', { name: 'Apply Restore' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Restore now' })).toBeNull();
  });
});
