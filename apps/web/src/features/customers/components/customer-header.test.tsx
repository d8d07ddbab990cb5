import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { WAIVER_MESSAGES, type CustomerOverview } from '@ce/contract';
import { customers } from '../../../lib/customer';
import { setStorageOwner } from '../../../lib/user-storage';
import { CustomerHeader, UNSEEN } from './customer-header';

const overview = (period: Partial<CustomerOverview['period']>): CustomerOverview => ({
  organizationId: '9000',
  organizationName: 'Acme Corporation',
  health: null,
  topActions: [],
  attention: { groups: [], people: [] },
  period: { days: 7, runs: [], byWatches: 0, drift: 0, hours: 3, waivers: 2, ...period },
  engagements: [],
});

const renderHeader = (shown: CustomerOverview) =>
  render(
    <MemoryRouter>
      <CustomerHeader
        organizationId="9000"
        overview={shown}
        periodLabel="This week"
        timelineLink={(tool) => `?tool=${tool}`}
        mayLink={false}
      />
    </MemoryRouter>,
  );

afterEach(() => {
  act(() => void customers.clear({ everywhere: true }));
});

describe("the customer page's header for someone not tied to the customer", () => {
  it('says in words what they cannot see and why, and counts no zero for it', () => {
    renderHeader(overview({ waivers: null, hours: null }));
    const unseen = within(screen.getByRole('list', { name: 'What you cannot see here' }));
    expect(unseen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      WAIVER_MESSAGES.cannotSee,
      UNSEEN.watches,
      UNSEEN.hours,
    ]);
    const line = screen.getByTestId('period-line').textContent ?? '';
    expect(line).not.toContain('changes at the customer');
    expect(line).not.toContain('waiver');
    expect(screen.getByText('No health check of yours yet.')).toBeTruthy();
  });

  it('leaves the waivers unsaid when the browser holds the customer’s token (its waivers are listed below)', () => {
    setStorageOwner('u-1');
    act(() =>
      customers.choose({ token: 'acme-org-admin-token', organizationId: '9000', organizationName: 'Acme Corporation' }),
    );
    renderHeader(overview({ waivers: null }));
    const unseen = within(screen.getByRole('list', { name: 'What you cannot see here' }));
    expect(unseen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([UNSEEN.watches]);
  });

  it('says nothing of the kind to the owner of a watch over it: its counts are the customer’s', () => {
    renderHeader(overview({ drift: 4 }));
    expect(screen.queryByRole('list', { name: 'What you cannot see here' })).toBeNull();
    expect(screen.getByTestId('period-line').textContent).toBe(
      'This week: nothing done by us · 4 changes at the customer · 3 h logged · 2 waivers in force',
    );
    expect(screen.getByText('No health check yet.')).toBeTruthy();
  });

  it('counts one of a kind in the singular: "1 report", "2 bulk runs"', () => {
    renderHeader(
      overview({
        runs: [
          { tool: 'reports', count: 1 },
          { tool: 'bulk', count: 2 },
        ],
      }),
    );
    expect(screen.getAllByTestId('period-run').map((run) => run.textContent)).toEqual(['1 report', '2 bulk runs']);
  });
});
