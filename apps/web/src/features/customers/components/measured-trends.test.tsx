import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerMeasurements } from '@ce/contract';
import { MeasuredTrends, MeasuredTrendsView } from './measured-trends';

afterEach(() => {
  vi.unstubAllGlobals();
});

const FIRST = '2026-06-02T07:00:00Z';
const SECOND = '2026-06-09T07:00:00Z';

/** Two watch runs over Acme: 'Payroll HTTP' fell, 'Checkout errors' got louder, one agent went offline. */
function twoRuns(): CustomerMeasurements {
  const points = (first: number | null, second: number | null) => [
    { at: FIRST, value: first },
    { at: SECOND, value: second },
  ];
  return {
    organizationId: '9000',
    runs: [
      { at: FIRST, watchId: 'w-1' },
      { at: SECOND, watchId: 'w-1' },
    ],
    availability: [
      { testId: 't-1', testName: 'Payroll HTTP', accountGroup: 'Acme - EMEA Branches', points: points(99.2, 91) },
      { testId: 't-2', testName: 'Branch DNS', accountGroup: 'Acme - EMEA Branches', points: points(0, 0) },
    ],
    // 'Portal login' fell most, yet is not among the worst tests.
    fell: [
      {
        testId: 't-3',
        testName: 'Portal login',
        accountGroup: 'Acme - EMEA Branches',
        before: 100,
        latest: 91.4,
        agents: 5,
        failingAgents: 3,
        points: points(100, 91.4),
      },
      {
        testId: 't-1',
        testName: 'Payroll HTTP',
        accountGroup: 'Acme - EMEA Branches',
        before: 99.2,
        latest: 91,
        agents: 5,
        failingAgents: 0,
        points: points(99.2, 91),
      },
    ],
    alerts: points(380, 412),
    noisiestRules: [{ ruleName: 'Checkout errors', accountGroup: 'Acme - EMEA Branches', points: points(371, 400) }],
    agentsOffline: points(0, 1),
    units: [
      { at: FIRST, used: 40_000, projected: 105_000, included: 100_000 },
      { at: SECOND, used: 60_000, projected: 112_000, included: 100_000 },
    ],
    unknown: [],
  };
}

const view = (data: CustomerMeasurements) => render(<MeasuredTrendsView data={data} watchLink="#watch-heading" />);

describe("the customer page's measured trends", () => {
  it('says each measure at the latest run against the run before, and draws each over the runs', () => {
    view(twoRuns());
    const tests = screen.getAllByTestId('trend-test');
    expect(tests.map((test) => test.querySelector('p')?.textContent)).toEqual([
      'Payroll HTTP 91.0%, was 99.2% (Acme - EMEA Branches)',
      'Branch DNS 0.0%, was 0.0% (Acme - EMEA Branches)',
    ]);
    // Every chart says its values in words.
    expect(
      within(tests[0] as HTMLElement)
        .getByRole('img')
        .getAttribute('aria-label'),
    ).toMatch(/^Payroll HTTP availability, at each run, oldest first: availability: .+ 99\.2%, .+ 91\.0%$/);
    expect(screen.getByTestId('trend-alerts').textContent).toContain(
      'Alerts that started in the run’s window: 412, was 380.',
    );
    expect(screen.getByTestId('trend-rule').textContent).toBe(
      'Checkout errors: 400 alerts, was 371 alerts (Acme - EMEA Branches)',
    );
    expect(screen.getByTestId('trend-agents').textContent).toContain('Offline at the run: 1, was 0.');
    const units = screen.getByTestId('trend-units');
    expect(units.textContent).toContain('60,000 used, 112,000 projected of 100,000 included (112% of it).');
    // Included is a line of its own, and not by colour alone: the legend says which line is which.
    expect(within(units).getByRole('img').getAttribute('aria-label')).toMatch(
      /used: .+ 40,000, .+ 60,000; projected: .+ 105,000, .+ 112,000; included 100,000$/,
    );
    expect(units.textContent).toContain('Dashed with squares: projected. Dotted: included.');
    expect(screen.getAllByRole('img')).toHaveLength(7);
    expect(screen.queryByTestId('trends-one-run')).toBeNull();
  });

  it('names the tests that fell since the run before, first, with their agents failing and their line', () => {
    view(twoRuns());
    const cards = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(cards[0]).toBe('Fell since the last run');
    const fell = screen.getAllByTestId('trend-fell-test');
    expect(fell.map((test) => test.querySelector('p')?.textContent)).toEqual([
      'Portal login 100.0% → 91.4%, 3 of 5 agents failing (Acme - EMEA Branches)',
      'Payroll HTTP 99.2% → 91.0% (Acme - EMEA Branches)',
    ]);
    expect(
      within(fell[0] as HTMLElement)
        .getByRole('img')
        .getAttribute('aria-label'),
    ).toMatch(/^Portal login availability, at each run, oldest first: availability: .+ 100\.0%, .+ 91\.4%$/);
  });

  it('says when no test fell since the run before', () => {
    view({ ...twoRuns(), fell: [] });
    expect(screen.getByTestId('trend-fell').textContent).toBe(
      'Fell since the last runNo test’s availability fell by a point or more since the run before.',
    );
  });

  it('before any watch run, says trends come from a watch and links to making one', () => {
    view({
      ...twoRuns(),
      runs: [],
      availability: [],
      fell: [],
      alerts: [],
      noisiestRules: [],
      agentsOffline: [],
      units: [],
    });
    const empty = screen.getByTestId('trends-empty');
    expect(empty.textContent).toContain('Trends come from a watch’s runs');
    expect(within(empty).getByRole('link', { name: 'make a watch' }).getAttribute('href')).toBe('#watch-heading');
    expect(screen.queryAllByRole('img')).toHaveLength(0);
  });

  it('after one run, says trends start with the second and gives its measures without a line or a fall', () => {
    const data = twoRuns();
    const one = (points: { at: string; value: number | null }[]) => points.slice(1);
    view({
      ...data,
      runs: data.runs.slice(1),
      availability: data.availability.map((test) => ({ ...test, points: one(test.points) })),
      fell: [],
      alerts: one(data.alerts),
      noisiestRules: data.noisiestRules.map((rule) => ({ ...rule, points: one(rule.points) })),
      agentsOffline: one(data.agentsOffline),
      units: data.units.slice(1),
    });
    expect(screen.getByTestId('trends-one-run').textContent).toMatch(
      /^One run so far \(.+\): trends start with the second/,
    );
    expect(screen.getAllByTestId('trend-test')[0]?.textContent).toBe('Payroll HTTP 91.0% (Acme - EMEA Branches)');
    expect(screen.getByTestId('trend-agents').textContent).toContain('Offline at the run: 1.');
    expect(screen.queryByTestId('trend-fell')).toBeNull();
    expect(screen.queryAllByRole('img')).toHaveLength(0);
  });

  it('says why a part could not be read instead of a figure, and a run that could not measure a value', () => {
    const data = twoRuns();
    view({
      ...data,
      units: data.units.map((point) => ({ ...point, used: null, projected: null, included: null })),
      agentsOffline: [
        { at: FIRST, value: 0 },
        { at: SECOND, value: null },
      ],
      unknown: [{ part: 'units', reason: 'the token lacks the View Billing permission' }],
    });
    const units = screen.getByTestId('trend-units');
    expect(units.textContent).toBe(
      'Cloud units this billing periodCould not be determined: the token lacks the View Billing permission',
    );
    expect(within(units).queryByRole('img')).toBeNull();
    const agents = screen.getByTestId('trend-agents');
    expect(agents.textContent).toContain('Offline at the run: not measured in the latest run.');
    expect(within(agents).getByRole('img').getAttribute('aria-label')).toMatch(/ 0, .+ not measured$/);
  });

  it('asks for the page’s period and says it could not read them in words', async () => {
    const fetch = vi.fn(async (_url: string) => Response.json({ code: 'internal', message: 'boom' }, { status: 500 }));
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MeasuredTrends organizationId="9000" days={30} watchLink="#watch-heading" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText('The measured trends could not be read.')).toBeTruthy();
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/customers/9000/measurements?days=30&everyone=false');
    expect(screen.getByText(/over the last 30 days/)).toBeTruthy();
  });
});
