import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CustomerOverview, WatchFindings } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { useCustomers } from '../../../lib/customer';
import { itemsOf } from '../attention-items';
import { dateOnly } from '../../../lib/dates';

type Waivable = Omit<WatchFindings['findings'][number], 'itemKey'> & { itemKey: string | null };

// Its form (and the schema library) load when a finding is waived: the page's first screen goes without them.
const WaiveDialog = lazy(() => import('./waive-dialog').then((module) => ({ default: module.WaiveDialog })));

const SEVERITY: Record<string, { words: string; tone: string }> = {
  fail: { words: 'Failing', tone: 'bg-red-100 text-red-900' },
  warn: { words: 'Warning', tone: 'bg-amber-100 text-amber-900' },
};

/** Items a group shows before "show all". */
const SHOWN = 5;

/**
 * "Needs attention": the latest health check's open findings grouped by check, heaviest first, severity in colour;
 * a person named by several checks listed once with those checks; each group collapsible; one item or a whole check
 * waived from here (the customer's token the browser holds goes with it, for a caller tied by it).
 */
export function NeedsAttention({
  organizationId,
  attention,
  health,
}: {
  organizationId: string;
  attention: CustomerOverview['attention'] | undefined;
  health: CustomerOverview['health'] | undefined;
}) {
  const { current, recent } = useCustomers();
  const token = [current, ...recent].find((customer) => customer?.organizationId === organizationId)?.token;
  const queryClient = useQueryClient();
  const [waiving, setWaiving] = useState<Waivable | null>(null);
  const [all, setAll] = useState<ReadonlySet<string>>(new Set());
  const groups = attention?.groups ?? [];
  const people = attention?.people ?? [];
  return (
    <section aria-labelledby="attention-heading" className="space-y-2">
      <h2 id="attention-heading" className="text-xl font-semibold">
        Needs attention
      </h2>
      {!attention ? (
        <p className="text-sm">Loading…</p>
      ) : !health ? (
        <p className="text-sm text-slate-600">No health check yet: run one (or a watch) to see what needs attention.</p>
      ) : groups.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing open in the health check of {dateOnly(health.at)}.</p>
      ) : (
        <>
          {people.length > 0 && (
            <details open className="rounded-md border border-slate-200 p-2" data-testid="attention-people">
              <summary className="cursor-pointer font-medium">Named by several checks ({people.length})</summary>
              <ul className="mt-1 space-y-1 text-sm">
                {people.map((person) => (
                  <li key={person.itemKey} data-testid="attention-person">
                    <span className="font-medium">{person.name}</span>{' '}
                    <span className="text-slate-600">({person.checks.map((check) => check.check).join(', ')})</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
          {groups.map((group) => {
            const severity = SEVERITY[group.status] ?? { words: group.status, tone: 'bg-slate-100 text-slate-800' };
            const shown = all.has(group.checkId) ? group.items : group.items.slice(0, SHOWN);
            return (
              <details
                key={group.checkId}
                id={`attention-${group.checkId}`}
                open={group.status === 'fail'}
                className="rounded-md border border-slate-200 p-2"
                data-testid="attention-group"
              >
                <summary className="cursor-pointer">
                  <span className={`mr-2 rounded px-1.5 py-0.5 text-xs font-semibold ${severity.tone}`}>
                    {severity.words}
                  </span>
                  <span className="font-medium">{group.check}</span>{' '}
                  <span className="text-sm text-slate-600">
                    ({itemsOf(group, people)}, weight {group.weight})
                  </span>
                </summary>
                <div className="mt-1 space-y-1">
                  <Button
                    size="sm"
                    variant="link"
                    onClick={() =>
                      setWaiving({
                        checkId: group.checkId,
                        check: group.check,
                        status: group.status,
                        itemKey: null,
                        name: `the whole check “${group.check}”`,
                        detail: '',
                      })
                    }
                  >
                    Waive the whole check
                  </Button>
                  <ul className="space-y-1 text-sm">
                    {shown.map((item) => (
                      <li key={item.itemKey} className="flex flex-wrap items-center gap-2">
                        <span className="min-w-0 break-words">
                          {item.name} <span className="text-slate-600">({item.detail})</span>
                        </span>
                        <Button
                          size="sm"
                          variant="link"
                          aria-label={`Waive ${item.name} (${group.check})`}
                          onClick={() =>
                            setWaiving({ ...item, checkId: group.checkId, check: group.check, status: group.status })
                          }
                        >
                          Waive
                        </Button>
                      </li>
                    ))}
                  </ul>
                  {group.items.length > shown.length && (
                    <Button size="sm" variant="link" onClick={() => setAll(new Set([...all, group.checkId]))}>
                      Show all {group.items.length}
                    </Button>
                  )}
                </div>
              </details>
            );
          })}
        </>
      )}
      {waiving && (
        <Suspense fallback={null}>
          <WaiveDialog
            organizationId={organizationId}
            token={token}
            finding={waiving}
            onClose={() => {
              setWaiving(null);
              void queryClient.invalidateQueries({ queryKey: ['customer-overview', organizationId] });
              void queryClient.invalidateQueries({ queryKey: ['customer-timeline', organizationId] });
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
