import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import type { ReportAccountGroup, ReviewNarrativeResponse, ReviewPreview, ReviewPreviewRequest } from '@ce/contract';
import { ReviewPackPage } from './review-pack-page';

/** The review pack page's test harness: a fixed now, the server as the page calls it, the page rendered. */

export const NOW = new Date('2026-12-02T13:07:30Z');
export const TOKEN = 'acme-org-admin-token-0123456789abcdef';
export const GROUPS: ReportAccountGroup[] = [
  { aid: '11', accountGroupName: 'Acme - EMEA Branches', organizationId: '9000', organizationName: 'Acme Corporation' },
  { aid: '12', accountGroupName: 'Acme - Production', organizationId: '9000', organizationName: 'Acme Corporation' },
];
export const FOOTER = 'Source: Account Watch runs. Figures up to 2026-12-02 13:07 UTC.';

export function preview(): ReviewPreview {
  return {
    organizationId: '9000',
    customer: 'Acme Corporation',
    periodLabel: 'November 2026',
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-12-01T00:00:00.000Z',
    cutOff: '2026-12-02T13:07:00.000Z',
    slides: [
      { kind: 'cover', title: 'Acme Corporation: business review', lines: ['November 2026', 'Prepared by Tara Tam'] },
      {
        kind: 'chart',
        title: 'Availability of the key tests, week over week',
        footer: FOOTER,
        chart: {
          type: 'line',
          categories: ['2 Nov', '9 Nov'],
          series: [
            { name: 'Payroll HTTP', values: [99.2, 91] },
            { name: 'Branch DNS', values: [100, null] },
          ],
          min: 90,
          max: 100,
          unit: 'percent of rounds without an error',
        },
        lines: ['Target: 99.5%.'],
      },
      {
        kind: 'table',
        title: 'Agents offline or outdated',
        footer: FOOTER,
        columns: ['Agent', 'State', 'Since'],
        rows: [
          ['ea-offline-9d', 'offline', '2026-11-23'],
          ['ea-old-1', 'outdated', '2026-10-02'],
        ],
        lines: [],
      },
      { kind: 'text', title: 'Outages and events', footer: FOOTER, lines: ['Read when the pack is built.'] },
    ],
    proposedKeyTests: [
      { testId: 't-1', testName: 'Payroll HTTP', accountGroup: 'Acme - EMEA Branches', availability: 91 },
      { testId: 't-2', testName: 'Branch DNS', accountGroup: 'Acme - EMEA Branches', availability: 100 },
    ],
    platformLater: ['outages and events that touched the customer’s tests', 'evidence links (test snapshots)'],
  };
}

export const KEPT: ReviewNarrativeResponse = {
  narrative: { goals: ['Cut the time to clear'], highlights: [], nextSteps: [] },
  updatedAt: '2026-11-20T10:00:00.000Z',
  updatedBy: 'Tara Tam',
};

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server as the page calls it; every call is kept, and the pack is done at its second reading. */
export function serve() {
  const calls: Call[] = [];
  let readings = 0;
  let kept = KEPT;
  const report = (status: string) => ({
    id: 'r-1',
    kind: 'review-pack',
    requestedBy: 'tara@example.com',
    organizationName: 'Acme Corporation',
    accountGroups: [],
    options: {},
    status,
    ahead: null,
    progress: { done: status === 'done' ? 4 : 1, total: 4 },
    error: null,
    delivery: { status: 'pending', error: null },
    artifacts:
      status === 'done'
        ? [
            { id: 'a-1', filename: 'review-acme.pptx', contentType: 'application/pptx', size: 10 },
            { id: 'a-2', filename: 'review-acme.pdf', contentType: 'application/pdf', size: 10 },
          ]
        : [],
    createdAt: NOW.toISOString(),
    finishedAt: null,
  });
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    if (path === '/api/review-preview' && method === 'POST') return Response.json(preview());
    if (path === '/api/review-narrative' && method === 'PUT') {
      kept = {
        narrative: (body as { narrative: ReviewNarrativeResponse['narrative'] }).narrative,
        updatedAt: NOW.toISOString(),
        updatedBy: 'Tara Tam',
      };
      return Response.json(kept);
    }
    if (path === '/api/review-narrative/read' && method === 'POST') return Response.json(kept);
    if (path === '/api/account-groups') return Response.json({ accountGroups: GROUPS });
    if (path === '/api/reports' && method === 'POST') return Response.json(report('queued'), { status: 202 });
    if (path === '/api/reports/r-1') return Response.json(report(++readings > 1 ? 'done' : 'running'));
    return new Response('{}', { status: 404 });
  });
  return calls;
}

/** The page at /home/customers/9000/review; with the app's query client, its error toasts are raised as in the app. */
export function renderPage(
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
) {
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/home/customers/9000/review']}>
        <Routes>
          <Route path="/home/customers/:organizationId/review" element={<ReviewPackPage now={() => NOW} />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** What the field says beside it (its description: the error under it). */
export const beside = (label: string) =>
  (screen.getByLabelText(label).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

export const previews = (calls: Call[]) =>
  calls.filter((call) => call.path === '/api/review-preview').map((call) => call.body as ReviewPreviewRequest);
