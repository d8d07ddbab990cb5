import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { userCan } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';
import { useWatches } from '../api/watches';
import { useFocusAfterRemoval } from '../hooks/use-focus-after-removal';
import { WaiversSection } from './waivers-section';
import { WatchCard } from './watch-card';
import { dayMonth } from '../../../lib/dates';

// Its form (and the schema library) load when asked for: the page's first screen goes without them.
const NewWatchDialog = lazy(() => import('./new-watch-dialog').then((module) => ({ default: module.NewWatchDialog })));

/**
 * A customer's Account Watch, on its page: the watches over it (everyone's for a Super User), a new one with the
 * customer's consent, each one's runs and score trend, and the findings waived for the customer.
 */
export function CustomerWatches({
  organizationId,
  organizationName,
  lastHealth,
}: {
  organizationId: string;
  organizationName: string;
  /** The customer's latest health check (a watch's or by hand): what an empty list says of it. */
  lastHealth?: { at: string; grade: string; findings: number } | null | undefined;
}) {
  const { data: user } = useSession();
  const watches = useWatches(userCan(user, 'seeAllRuns'));
  const [creating, setCreating] = useState(false);
  const mine = (watches.data ?? []).filter((watch) => watch.organizationId === organizationId);
  const mayWatch = userCan(user, 'healthCheck') || userCan(user, 'tools');
  // The findings are those of the health check that ran last, as My customers counts them.
  const withHealth =
    mine
      .filter((watch) => watch.runs !== 'backup')
      .sort((a, b) => (b.lastRunAt ?? '').localeCompare(a.lastRunAt ?? ''))[0] ?? null;
  useFocusAfterRemoval(
    mine.map((watch) => watch.id),
    'watch-heading',
  );
  // Opened from My customers (…#watch-heading): the section is in view once the watches are read.
  useEffect(() => {
    if (!watches.isPending && window.location.hash === '#watch-heading')
      document.getElementById('watch-heading')?.scrollIntoView();
  }, [watches.isPending]);
  return (
    <section aria-labelledby="watch-heading" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="watch-heading" tabIndex={-1} className="text-xl font-semibold">
          Account Watch
        </h2>
        {mayWatch && <Button onClick={() => setCreating(true)}>New watch</Button>}
      </div>
      <p className="text-sm text-slate-600">
        A watch runs this customer’s health check and backup on a schedule and says in Webex only what changed since its
        previous run.
      </p>
      {watches.isPending ? (
        <p className="text-sm">Loading…</p>
      ) : mine.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-watch">
          {organizationName} has no watch yet
          {lastHealth
            ? `: the last health check, ${dayMonth(lastHealth.at)}, graded ${lastHealth.grade} with ${lastHealth.findings} finding${lastHealth.findings === 1 ? '' : 's'}.`
            : '.'}
        </p>
      ) : (
        mine.map((watch) => <WatchCard key={watch.id} watch={watch} />)
      )}
      {userCan(user, 'healthCheck') && (
        <WaiversSection organizationId={organizationId} watchId={withHealth?.id ?? null} />
      )}
      {creating && (
        <Suspense fallback={null}>
          <NewWatchDialog
            organization={{ id: organizationId, name: organizationName }}
            isOpen
            onClose={() => setCreating(false)}
          />
        </Suspense>
      )}
    </section>
  );
}
