import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MigrationPlan, MigrationPlanItem } from '@ce/contract';
import { PlanView } from './plan-view';

const item = (name: string, changes: Partial<MigrationPlanItem> = {}): MigrationPlanItem => ({
  kind: 'alert-rule',
  sourceId: name,
  sourceName: name,
  name,
  aid: '9',
  accountGroupName: 'Globex - Trading Platform',
  status: 'create',
  differences: [],
  resolved: [],
  dropped: [],
  reason: null,
  ...changes,
});
const plan = (items: MigrationPlanItem[]): MigrationPlan => ({
  items,
  totals: { create: items.length },
  writes: items.length,
  problems: [],
});

describe('the migration plan, on rules that would arrive unable to alert', () => {
  it('names them before anything is applied, and offers to leave them out', () => {
    const leaveOut = vi.fn();
    render(
      <PlanView
        plan={plan([item('Portal latency', { unableToAlert: true }), item('Portal errors')])}
        decisions={new Map()}
        onDecide={() => undefined}
        onLeaveOut={leaveOut}
      />,
    );
    const said = screen.getByRole('status', { name: 'Rules unable to alert' });
    expect(said.textContent).toContain(
      '1 rule would arrive with no test and no recipient, so it could never alert anyone:',
    );
    expect(
      within(said)
        .getAllByRole('listitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Portal latency in Globex - Trading Platform']);
    expect(screen.getByRole('row', { name: /Portal latency/ }).textContent).toContain(
      'It would arrive with no test and no recipient, so it could never alert anyone',
    );
    fireEvent.click(within(said).getByRole('button', { name: 'Leave it out' }));
    expect(leaveOut).toHaveBeenCalledOnce();
  });

  it('says nothing when every rule can alert', () => {
    render(<PlanView plan={plan([item('Portal errors')])} decisions={new Map()} onDecide={() => undefined} />);
    expect(screen.queryByRole('status', { name: 'Rules unable to alert' })).toBeNull();
  });
});
