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
  lastPack: null,
  nextPackDue: null,
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

  it('shows each customer’s last review pack with a link to it and when the next is due, or no pack yet', async () => {
    const packed: PortfolioEntry = {
      ...entry(['tam@demo.local']),
      organizationId: '9001',
      organizationName: 'Globex',
      lastPack: {
        reportId: 'report-1',
        periodKind: 'quarter',
        from: '2026-01-01',
        to: '2026-03-31',
        periodLabel: 'Q1 2026',
        builtAt: '2026-04-02T09:00:00Z',
      },
      nextPackDue: '2099-07-01',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.startsWith('/api/session')
          ? Response.json({ user: { id: 'u-2', email: 'tam@demo.local', name: 'Tam', role: 'TAM', locale: 'en' } })
          : Response.json({ customers: [entry(['tam@demo.local']), packed] }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <Portfolio />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'My customers' });
    const [acme, globex] = await within(table).findAllByTestId('portfolio-pack');
    expect(acme?.textContent).toBe('No pack yet');
    const link = within(globex as HTMLElement).getByRole('link', { name: /Q1 2026 review pack of Globex/ });
    expect(link.getAttribute('href')).toBe('/home/reports?report=report-1');
    expect(globex?.textContent).toContain('Next due 1 Jul 2099');
    expect(screen.getByRole('button', { name: 'Export fleet summary' })).toBeTruthy();
  });
});
