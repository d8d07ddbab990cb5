import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortfolioEntry } from '@ce/contract';
import { Portfolio } from './portfolio';

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = (owners: string[]): PortfolioEntry => ({
  organizationId: '9000',
  organizationName: 'Acme Corporation',
  watches: owners.length,
  owners,
  pausedWatches: 0,
  score: 71,
  trend: [80, 71],
  change: -9,
  lastRunAt: null,
  lastBackupAt: null,
  driftSinceBackup: null,
  openFindings: 4,
  waivedFindings: 0,
  nextRunAt: null,
  commonRegressions: [],
  state: 'amber',
  reasons: ['score −9 since last week', '4 open findings'],
});

describe('My customers', () => {
  it("names the owners of the watches in a Super User's Everyone's view, and not in their own", async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url.startsWith('/api/session'))
        return Response.json({
          user: { id: 'u-1', email: 'su@demo.local', name: 'Su', role: 'Super User', locale: 'en' },
        });
      const everyone = url.includes('everyone=true');
      return Response.json({
        customers: [entry(everyone ? ['dana@demo.local', 'su@demo.local'] : ['su@demo.local'])],
      });
    });
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <Portfolio />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'My customers' });
    await within(table).findByText('Acme Corporation');
    expect(within(table).queryByRole('columnheader', { name: /Owners/ })).toBeNull();

    fireEvent.change(await screen.findByLabelText('Whose'), { target: { value: 'everyone' } });
    expect(await within(table).findByText('dana@demo.local, su@demo.local')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: /Owners/ })).toBeTruthy();
  });
});
