import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { communityQueryKey } from '../api/community-dashboards';
import { CloneForm } from './clone-form';
import { CommunityList } from './community-list';

type View = 'intro' | 'clone' | 'community';

export interface DashboardManagerProps {
  /** Opens the Dashboard Report (a report kind, through the shared wizard the page provides). */
  onDashboardReport: () => void;
  canReview: boolean;
}

/**
 * The dashboard manager (spec section 2): a sidebar with Dashboard Report, Clone Dashboard and Vote & View;
 * the clone form and the community list are shown one at a time, and opening the list reloads it.
 */
export function DashboardManager({ onDashboardReport, canReview }: DashboardManagerProps) {
  const [params] = useSearchParams();
  // A link to one community dashboard (?dashboard=<id>, after a clone) opens the list with it in view.
  const linked = params.get('dashboard');
  const [view, setView] = useState<View>(linked ? 'community' : 'intro');
  const [shownLink, setShownLink] = useState(linked);
  if (linked !== shownLink) {
    setShownLink(linked);
    if (linked) setView('community');
  }
  const queryClient = useQueryClient();
  const openCommunity = () => {
    setView('community');
    void queryClient.invalidateQueries({ queryKey: communityQueryKey() });
  };
  const item = (active: boolean) => (active ? 'justify-start ring-2 ring-brand-500' : 'justify-start');

  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav aria-label="Dashboards" className="flex shrink-0 flex-col gap-2 lg:w-56">
        <div className="mb-2 flex items-center gap-2">
          <h1 className="text-2xl font-semibold">Dashboards</h1>
          <Badge tone="info">Beta</Badge>
        </div>
        <Button className={item(false)} onClick={onDashboardReport}>
          Dashboard Report
        </Button>
        <Button className={item(view === 'clone')} aria-pressed={view === 'clone'} onClick={() => setView('clone')}>
          Clone Dashboard
        </Button>
        <Button className={item(view === 'community')} aria-pressed={view === 'community'} onClick={openCommunity}>
          Vote &amp; View
        </Button>
      </nav>
      <div className="min-w-0 flex-1">
        {view === 'intro' && <Introduction />}
        {view === 'clone' && <CloneForm />}
        {view === 'community' && <CommunityList canReview={canReview} />}
      </div>
    </div>
  );
}

function Introduction() {
  return (
    <section className="max-w-3xl space-y-3" aria-label="About the dashboard manager">
      <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        Beta: the dashboard manager is new. Check a pushed dashboard in the customer&apos;s account group before handing
        it over, and tell the team what is missing.
      </p>
      <ul className="list-disc space-y-1 pl-5 text-slate-700">
        <li>
          <strong>Clone Dashboard</strong>: store a customer&apos;s dashboard in the community gallery with a
          description and three screenshots.
        </li>
        <li>
          <strong>Vote &amp; View</strong>: browse the gallery, vote and review, see screenshots and the JSON
          definition.
        </li>
        <li>
          <strong>Push</strong>: create a gallery dashboard in any account group; its tests, agents and tags are matched
          by name there, and you see what maps and what is dropped before deploying.
        </li>
        <li>
          <strong>Dashboard Report</strong>: an inventory of the dashboards of chosen account groups (XLSX and HTML).
        </li>
      </ul>
    </section>
  );
}
