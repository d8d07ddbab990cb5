import { useDeferredValue, useState } from 'react';
import { DASHBOARD_MESSAGES, DASHBOARD_SORTS, type CommunityDashboard, type DashboardSort } from '@ce/contract';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Select, TextInput } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useCommunityDashboards } from '../api/community-dashboards';
import { CommunityEntry } from './community-entry';
import { JsonDialog } from './json-dialog';
import { PushDialog } from './push-dialog';

const SORT_LABELS: Record<DashboardSort, string> = { votes: 'Most votes', newest: 'Newest', pushed: 'Most pushed' };

export interface CommunityListProps {
  /** Reviewers approve or reject entries (the reviewDashboards capability). */
  canReview: boolean;
}

/** Vote & View: the community gallery, searched by title and description and sorted. */
export function CommunityList({ canReview }: CommunityListProps) {
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<DashboardSort>('votes');
  const deferredSearch = useDeferredValue(search.trim());
  const list = useCommunityDashboards(deferredSearch, sort);
  const [json, setJson] = useState<CommunityDashboard | null>(null);
  const [push, setPush] = useState<CommunityDashboard | null>(null);
  const dashboards = list.data ?? [];

  return (
    <section className="space-y-4" aria-label="Community dashboards">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-xl font-semibold">Community Dashboards</h2>
        <div className="flex flex-wrap items-end gap-3">
          <TextInput
            label="Search"
            type="search"
            placeholder="Title or description"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <Select
            label="Sort by"
            options={DASHBOARD_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }))}
            value={sort}
            onChange={(event) => setSort(event.target.value as DashboardSort)}
          />
        </div>
      </div>
      {list.isPending && <Spinner label="Loading community dashboards" />}
      {list.isError && (
        <Banner tone="error" action={<Button onClick={() => void list.refetch()}>Retry</Button>}>
          {DASHBOARD_MESSAGES.listFailed}
        </Banner>
      )}
      {list.isSuccess && dashboards.length === 0 && (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <p className="font-medium">
            {deferredSearch ? 'No dashboard matches this search.' : DASHBOARD_MESSAGES.empty}
          </p>
          {!deferredSearch && (
            <p className="text-sm text-slate-500">
              Clone a dashboard from a customer account group to start the gallery.
            </p>
          )}
        </div>
      )}
      <ul className="space-y-3">
        {dashboards.map((dashboard) => (
          <CommunityEntry
            key={dashboard.id}
            dashboard={dashboard}
            canReview={canReview}
            onJson={() => setJson(dashboard)}
            onPush={() => setPush(dashboard)}
          />
        ))}
      </ul>
      <JsonDialog dashboard={json} onClose={() => setJson(null)} />
      <PushDialog dashboard={push} onClose={() => setPush(null)} />
    </section>
  );
}
