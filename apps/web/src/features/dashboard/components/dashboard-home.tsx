import { EMPTY_DASHBOARD_METRICS } from '@ce/contract';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { useDashboardMetrics } from '../api/get-dashboard-metrics';
import { parseReleaseNotes } from '../parse-release-notes';
import releaseNotesMarkdown from '../release-notes.md?raw';
import { MetricTile } from './metric-tile';

const RELEASE_NOTES = parseReleaseNotes(releaseNotesMarkdown);

export function DashboardHome() {
  const metricsQuery = useDashboardMetrics();
  // On error loading stops and the zeros stay (spec section 2).
  const metrics = metricsQuery.data ?? EMPTY_DASHBOARD_METRICS;
  const isLoading = metricsQuery.isPending;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Dashboard</h1>
      {metricsQuery.isError && (
        <Banner
          tone="warning"
          action={
            <Button
              size="sm"
              busy={metricsQuery.isFetching}
              busyLabel="Retrying"
              onClick={() => void metricsQuery.refetch()}
            >
              Retry
            </Button>
          }
        >
          The usage figures could not be loaded, so the counters below show zero.
        </Banner>
      )}
      <section aria-label="Usage" className="grid grid-cols-2 gap-4 lg:grid-cols-3 xl:grid-cols-6">
        <MetricTile label="Health Check" value={metrics.healthCheck} isLoading={isLoading} />
        <MetricTile label="CA & EA Config" value={metrics.caEaConfig} isLoading={isLoading} />
        <MetricTile label="EPA Config" value={metrics.epaConfig} isLoading={isLoading} />
        <MetricTile label="Alerts Report" value={metrics.alertsReport} isLoading={isLoading} />
        <MetricTile label="Provisioned Dashboards" value={metrics.provisionedDashboards} isLoading={isLoading} />
        <MetricTile label="Provisioned Tests" value={metrics.provisionedTests} isLoading={isLoading} />
      </section>
      <div className="grid gap-4 lg:grid-cols-3">
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="activity-heading">
          <h2 id="activity-heading" className="font-medium">
            Activity &amp; Closure
          </h2>
          <div className="mt-3 grid grid-cols-2 gap-3">
            <MetricTile label="TAM Activity Reports" value={metrics.tamActivity} isLoading={isLoading} />
            <MetricTile label="PS Closure Documents" value={metrics.psClosure} isLoading={isLoading} />
          </div>
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="hours-heading">
          <h2 id="hours-heading" className="font-medium">
            Team Hours
          </h2>
          <div className="mt-3 grid grid-cols-2 gap-3">
            <MetricTile label="PS" value={metrics.hours.ps} isLoading={isLoading} suffix="h" />
            <MetricTile label="TAM" value={metrics.hours.tam} isLoading={isLoading} suffix="h" />
          </div>
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="notes-heading">
          <h2 id="notes-heading" className="font-medium">
            Release Notes
          </h2>
          <div className="mt-3 space-y-4 text-sm">
            {RELEASE_NOTES.map((entry) => (
              <article key={entry.heading}>
                <h3 className="font-semibold text-brand-800">{entry.heading}</h3>
                <ul className="mt-1 list-disc pl-5 text-slate-700">
                  {entry.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              </article>
            ))}
          </div>
        </section>
      </div>
    </div>
  );
}
