import { useSearchParams } from 'react-router';
import { AgentsWizard } from '../../features/bulk/components/agents-wizard';
import { BulkTestsWizard } from '../../features/bulk/components/bulk-tests-wizard';
import { LabelsTab } from '../../features/bulk/components/labels-tab';
import { UsersTab } from '../../features/bulk/components/users-tab';

export function BulkTestsPage() {
  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Bulk Test Creator</h1>
        <p className="text-slate-600">
          Creates the same tests in many account groups at once, from templates, paced to the platform&apos;s rate
          limit. A run carries on on the server if you leave the page, and can be undone.
        </p>
      </div>
      <BulkTestsWizard variant="sidebar" />
    </section>
  );
}

const TABS = [
  { id: 'tests', label: 'Bulk Tests' },
  { id: 'labels', label: 'Bulk Labels' },
  { id: 'users', label: 'Bulk Users' },
  { id: 'agents', label: 'Bulk Agents' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function BulkOperationsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabId = TABS.find((candidate) => candidate.id === requested)?.id ?? 'tests';
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold">Bulk Operations</h1>
      <div role="tablist" aria-label="Bulk operations" className="flex gap-1 border-b border-slate-200">
        {TABS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            id={`bulk-tab-${candidate.id}`}
            aria-selected={tab === candidate.id}
            aria-controls={`bulk-panel-${candidate.id}`}
            // A tab starts fresh: a run shown in another tab stays reachable from its own address.
            onClick={() => setParams(candidate.id === 'tests' ? {} : { tab: candidate.id })}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${
              tab === candidate.id
                ? 'border-brand-700 text-brand-800'
                : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`bulk-panel-${tab}`} aria-labelledby={`bulk-tab-${tab}`} key={tab}>
        {tab === 'tests' && <BulkTestsWizard variant="stepper" />}
        {tab === 'labels' && <LabelsTab />}
        {tab === 'users' && <UsersTab />}
        {tab === 'agents' && <AgentsWizard />}
      </div>
    </section>
  );
}
