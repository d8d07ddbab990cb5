import type { ReactNode } from 'react';
import type { CustomerMeasurements, TrendPoint } from '@ce/contract';
import { useCustomerMeasurements } from '../api/measurements';
import { runTime, TrendChart } from './trend-chart';

type Part = CustomerMeasurements['unknown'][number]['part'];

const percent = (value: number) => `${value.toFixed(1)}%`;
const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, one: string, many = `${one}s`) => `${count(value)} ${value === 1 ? one : many}`;

/** The latest run's value and the one of the run before it that measured it ("91.0%, was 99.2%"). */
function latestOf(values: (number | null)[]): { latest: number | null; before: number | null } {
  const latest = values.at(-1) ?? null;
  const before = values.slice(0, -1).findLast((value) => value !== null) ?? null;
  return { latest, before };
}

/** Availability is drawn from 90% up, or from the tens below its worst run. */
const floorOf = (points: TrendPoint[]) =>
  Math.floor(Math.min(90, ...points.flatMap((point) => (point.value === null ? [] : [point.value]))) / 10) * 10;

const valuesOf = (points: TrendPoint[]) => points.map((point) => point.value);

/** "91.0%, was 99.2%": the latest value, then the one before when there is one. */
function moved(values: (number | null)[], format: (value: number) => string): string {
  const { latest, before } = latestOf(values);
  if (latest === null) return 'not measured in the latest run';
  return before === null ? format(latest) : `${format(latest)}, was ${format(before)}`;
}

/** One test's availability over the runs, from its floor to 100%. */
function AvailabilityChart({ testName, points }: { testName: string; points: TrendPoint[] }) {
  return (
    <TrendChart
      label={`${testName} availability`}
      at={points.map((point) => point.at)}
      series={[{ name: 'availability', values: valuesOf(points) }]}
      format={percent}
      floor={floorOf(points)}
      ceiling={100}
    />
  );
}

function Card({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-2 rounded-md border border-slate-200 p-3" data-testid={testId}>
      <h3 className="font-semibold">{title}</h3>
      {children}
    </div>
  );
}

/** What a part the latest run could not read says instead of a figure. */
function Unknown({ reason }: { reason: string }) {
  return (
    <p className="text-sm text-slate-700" data-testid="trend-unknown">
      Could not be determined: {reason}
    </p>
  );
}

/**
 * The tests whose availability fell most since the run before, whether or not they are among the worst: the move a
 * TAM is asked about ("Payroll HTTP 100.0% → 91.4%").
 */
function FellCard({ fell }: { fell: CustomerMeasurements['fell'] }) {
  return (
    <Card title="Fell since the last run" testId="trend-fell">
      {fell.length === 0 ? (
        <p className="text-sm text-slate-700">No test’s availability fell by a point or more since the run before.</p>
      ) : (
        <ul className="space-y-3">
          {fell.map((test) => (
            <li key={`${test.accountGroup}:${test.testId}`} className="space-y-1" data-testid="trend-fell-test">
              <p className="text-sm break-words">
                <span className="font-medium">{test.testName}</span> {percent(test.before)} → {percent(test.latest)}
                {test.failingAgents > 0 && `, ${test.failingAgents} of ${plural(test.agents, 'agent')} failing`}{' '}
                <span className="text-slate-600">({test.accountGroup})</span>
              </p>
              <AvailabilityChart testName={test.testName} points={test.points} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * The measures themselves, each with its latest value in words and, from the second run on, its line over the
 * runs. A part the latest run could not read says why, never a zero.
 */
export function MeasuredTrendsView({ data, watchLink }: { data: CustomerMeasurements; watchLink: string }) {
  const { runs } = data;
  if (runs.length === 0)
    return (
      <p className="text-sm text-slate-700" data-testid="trends-empty">
        No watch run measured this customer in this period. Trends come from a watch’s runs of the health check, one
        point a run:{' '}
        <a href={watchLink} className="font-medium text-brand-800 underline">
          make a watch
        </a>{' '}
        and its runs draw them here.
      </p>
    );
  const charts = runs.length > 1;
  const unknown = (part: Part) => data.unknown.find((entry) => entry.part === part)?.reason;
  const latestUnits = data.units.at(-1);
  const included = latestUnits?.included ?? null;
  const unitsWords = (() => {
    if (!latestUnits || (latestUnits.used === null && latestUnits.projected === null))
      return 'Not measured in the latest run.';
    const used = latestUnits.used === null ? 'used not measured' : `${count(latestUnits.used)} used`;
    if (latestUnits.projected === null) return `${used}; projection not measured.`;
    const share = included ? ` (${Math.round((latestUnits.projected / included) * 100)}% of it)` : '';
    return `${used}, ${count(latestUnits.projected)} projected${
      included === null ? '; the plan names no included units' : ` of ${count(included)} included${share}`
    }.`;
  })();

  return (
    <>
      {!charts && (
        <p className="text-sm text-slate-700" data-testid="trends-one-run">
          One run so far ({runTime(runs[0]?.at ?? '')}): trends start with the second. Its measures:
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        {charts && !unknown('tests') && <FellCard fell={data.fell} />}
        <Card title="Availability of the worst tests" testId="trend-availability">
          {unknown('tests') ? (
            <Unknown reason={unknown('tests') ?? ''} />
          ) : data.availability.length === 0 ? (
            <p className="text-sm text-slate-700">No test made a round in the latest run’s window.</p>
          ) : (
            <ul className="space-y-3">
              {data.availability.map((test) => (
                <li key={test.testId} className="space-y-1" data-testid="trend-test">
                  <p className="text-sm break-words">
                    <span className="font-medium">{test.testName}</span> {moved(valuesOf(test.points), percent)}{' '}
                    <span className="text-slate-600">({test.accountGroup})</span>
                  </p>
                  {charts && <AvailabilityChart testName={test.testName} points={test.points} />}
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Alerts per run" testId="trend-alerts">
          {unknown('rules') ? (
            <Unknown reason={unknown('rules') ?? ''} />
          ) : (
            <>
              <p className="text-sm">Alerts that started in the run’s window: {moved(valuesOf(data.alerts), count)}.</p>
              {charts && (
                <TrendChart
                  label="Alerts"
                  at={data.alerts.map((point) => point.at)}
                  series={[{ name: 'alerts', values: valuesOf(data.alerts) }]}
                  format={count}
                />
              )}
              {data.noisiestRules.length > 0 && (
                <>
                  <h4 className="text-sm font-medium">Noisiest rules</h4>
                  <ol className="list-decimal space-y-0.5 pl-5 text-sm" aria-label="Noisiest rules">
                    {data.noisiestRules.map((rule) => (
                      <li
                        key={`${rule.accountGroup}:${rule.ruleName}`}
                        className="break-words"
                        data-testid="trend-rule"
                      >
                        <span className="font-medium">{rule.ruleName}</span>:{' '}
                        {moved(valuesOf(rule.points), (value) => plural(value, 'alert'))}{' '}
                        <span className="text-slate-600">({rule.accountGroup})</span>
                      </li>
                    ))}
                  </ol>
                </>
              )}
            </>
          )}
        </Card>
        <Card title="Enterprise agents offline" testId="trend-agents">
          {unknown('agents') ? (
            <Unknown reason={unknown('agents') ?? ''} />
          ) : (
            <>
              <p className="text-sm">Offline at the run: {moved(valuesOf(data.agentsOffline), count)}.</p>
              {charts && (
                <TrendChart
                  label="Enterprise agents offline"
                  at={data.agentsOffline.map((point) => point.at)}
                  series={[{ name: 'offline', values: valuesOf(data.agentsOffline) }]}
                  format={count}
                />
              )}
            </>
          )}
        </Card>
        <Card title="Cloud units this billing period" testId="trend-units">
          {unknown('units') ? (
            <Unknown reason={unknown('units') ?? ''} />
          ) : (
            <>
              <p className="text-sm">{unitsWords}</p>
              {charts && (
                <>
                  <TrendChart
                    label="Cloud units"
                    at={data.units.map((point) => point.at)}
                    series={[
                      { name: 'used', values: data.units.map((point) => point.used) },
                      { name: 'projected', values: data.units.map((point) => point.projected), dashed: true },
                    ]}
                    format={count}
                    reference={included === null ? undefined : { name: 'included', value: included }}
                  />
                  <p className="text-xs text-slate-600">
                    Solid with dots: used. Dashed with squares: projected.
                    {included !== null && ' Dotted: included.'}
                  </p>
                </>
              )}
            </>
          )}
        </Card>
      </div>
    </>
  );
}

/**
 * The customer page's measured trends: what the platform measured at each of the watches' runs over the customer
 * in the page's period (the tests that fell since the run before, availability of the worst tests, alerts, agents
 * offline, units against included).
 */
export function MeasuredTrends({
  organizationId,
  days,
  everyone = false,
  watchLink,
}: {
  organizationId: string;
  days: number;
  /** Everyone's watches' runs, not only the caller's (the page's "Whose"). */
  everyone?: boolean;
  /** Where a watch is made (the page's Account Watch section). */
  watchLink: string;
}) {
  const measurements = useCustomerMeasurements(organizationId, { days, everyone });
  return (
    <section aria-labelledby="measured-heading" className="space-y-3" data-testid="measured-trends">
      <h2 id="measured-heading" className="text-xl font-semibold">
        Measured trends
      </h2>
      <p className="text-sm text-slate-600">
        What the platform measured at each watch run over the last {days} days, oldest first.
      </p>
      {measurements.isPending ? (
        <p className="text-sm">Loading…</p>
      ) : measurements.isError ? (
        <p className="text-sm text-red-700">The measured trends could not be read.</p>
      ) : (
        <MeasuredTrendsView data={measurements.data} watchLink={watchLink} />
      )}
    </section>
  );
}
