import { lazy, Suspense, useState } from 'react';
import { WAIVER_MESSAGES, type WatchFindings } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { ApiRequestError } from '../../../lib/api-client';
import { useCustomers } from '../../../lib/customer';
import { useEndWaiver } from '../api/end-waiver';
import { useWaivers } from '../api/waivers';
import { useWatchFindings } from '../api/watch-findings';
import { useFocusAfterRemoval } from '../hooks/use-focus-after-removal';
import { dateOnly, dateTime } from '../../../lib/dates';

type Finding = WatchFindings['findings'][number];

// Its form (and the schema library) load when a finding is waived: the page's first screen goes without them.
const WaiveDialog = lazy(() => import('./waive-dialog').then((module) => ({ default: module.WaiveDialog })));

/** A check's id in words: "inactive-users" is "Inactive users". */
const checkWords = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1).replaceAll('-', ' ')}`;

/** The token the browser holds for the organization (the chosen customer's, else a recent one's), if any. */
function useTokenOf(organizationId: string): string | undefined {
  const { current, recent } = useCustomers();
  return [current, ...recent].find((customer) => customer?.organizationId === organizationId)?.token;
}

/**
 * A customer's open findings (from a watch's latest health check), each waivable, and the waivers in force. Open and
 * waived are the server's count (a finding waived since the latest run is waived at once, not open), as My customers
 * says them; the customer's token goes with each waiver request, for a caller tied to the customer by it alone.
 */
export function WaiversSection({ organizationId, watchId }: { organizationId: string; watchId: string | null }) {
  const token = useTokenOf(organizationId);
  const findings = useWatchFindings(watchId);
  const waivers = useWaivers(organizationId, token, true);
  const end = useEndWaiver();
  const [waiving, setWaiving] = useState<Finding | null>(null);
  const inForce = waivers.data ?? [];
  useFocusAfterRemoval(
    inForce.map((waiver) => waiver.id),
    'findings-heading',
  );
  const open = watchId ? (findings.data?.findings ?? []) : [];
  // Closed to a caller not tied to the customer: said in words, with no count that would read as none.
  const closed = waivers.error instanceof ApiRequestError && waivers.error.status === 403;
  return (
    <section aria-labelledby="findings-heading" className="space-y-3">
      <h2 id="findings-heading" tabIndex={-1} className="text-xl font-semibold">
        Findings and waivers
      </h2>
      {closed && (
        <p className="text-sm text-slate-700" data-testid="waivers-closed">
          {WAIVER_MESSAGES.cannotSee} Choose the customer with its token to see them.
        </p>
      )}
      {open.length === 0 ? (
        <p className="text-sm text-slate-600">
          {watchId
            ? 'No open finding in the latest health check of a watch.'
            : 'The open findings of the latest health check are under “Needs attention”.'}
        </p>
      ) : (
        <>
          {findings.data?.at && (
            <p className="text-sm text-slate-600">From the health check of {dateTime(findings.data.at)}.</p>
          )}
          <h3 className="text-lg font-medium" data-testid="open-count">
            Open ({open.length})
          </h3>
          <ul className="space-y-1" aria-label="Open findings">
            {open.map((finding) => (
              <li
                key={`${finding.checkId}:${finding.itemKey}`}
                className="flex flex-wrap items-center gap-2 text-sm"
                data-testid="open-finding"
              >
                <span className="font-medium">{finding.check}:</span>
                <span className="min-w-0 break-words">
                  {finding.name} ({finding.detail})
                </span>
                <Button
                  size="sm"
                  variant="link"
                  onClick={() => setWaiving(finding)}
                  aria-label={`Waive ${finding.name} (${finding.check})`}
                >
                  Waive
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      {!closed && (
        <h3 className="text-lg font-medium" data-testid="waived-count">
          Waived{waivers.data ? ` (${inForce.length})` : ''}
        </h3>
      )}
      {closed ? null : inForce.length === 0 ? (
        <p className="text-sm text-slate-600">No finding is waived for this customer.</p>
      ) : (
        <ul className="space-y-1" aria-label="Waived findings">
          {inForce.map((waiver) => (
            <li key={waiver.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="waiver">
              <span className="font-medium">{waiver.itemName ?? 'The whole check'}</span>
              <span className="text-slate-600">
                ({checkWords(waiver.checkId)}) “{waiver.reason}”, by {waiver.createdBy ?? 'a former user'}, until{' '}
                {dateOnly(waiver.expiresAt)}
              </span>
              <Button
                size="sm"
                variant="link"
                busy={end.isPending}
                busyLabel="Ending"
                onClick={() => end.mutate({ id: waiver.id, ...(token ? { token } : {}) })}
              >
                End waiver
              </Button>
            </li>
          ))}
        </ul>
      )}
      {waiving && (
        <Suspense fallback={null}>
          <WaiveDialog
            organizationId={organizationId}
            token={token}
            finding={waiving}
            onClose={() => setWaiving(null)}
          />
        </Suspense>
      )}
    </section>
  );
}
