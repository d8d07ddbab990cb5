import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MigrationPlan } from '@ce/contract';
import { PlanView } from './plan-view';

const plan = (changes: Partial<MigrationPlan>): MigrationPlan => ({
  items: [
    {
      kind: 'alert-rule',
      sourceId: '1',
      sourceName: 'Latency',
      name: 'Latency',
      aid: '9',
      accountGroupName: 'Globex - Web',
      status: 'create',
      differences: [],
      resolved: [],
      dropped: [
        {
          kind: 'recipient',
          name: 'noc@acme.example.com',
          reason: "An email address of the source's organization: kept in another organization only when asked",
        },
      ],
      reason: null,
    },
  ],
  totals: { create: 1 },
  writes: 1,
  problems: [],
  ...changes,
});

describe('the migration plan', () => {
  it('lists each recipient dropped in another organization with its reason', () => {
    render(<PlanView plan={plan({})} decisions={new Map()} onDecide={() => undefined} />);
    expect(within(screen.getByRole('list', { name: 'Dropped from Latency' })).getByRole('listitem').textContent).toBe(
      "Dropped recipient noc@acme.example.com: An email address of the source's organization: kept in another organization only when asked",
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says before anything is confirmed what stops the migration', () => {
    const problem =
      'The token cannot write into Globex - Web: its user (Read-only Auditor) lacks the "Edit alert rules" permission there.';
    render(<PlanView plan={plan({ problems: [problem] })} decisions={new Map()} onDecide={() => undefined} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This migration cannot be applied: nothing has been written.');
    expect(within(alert).getByRole('listitem').textContent).toBe(problem);
  });
});
