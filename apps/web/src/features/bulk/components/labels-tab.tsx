import { useMemo, useState } from 'react';
import { BULK_MESSAGES, type BulkTestsList } from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { useLoadTests } from '../api/platform-reads';
import { useStartRun } from '../api/runs';
import { toastPlatformError, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../hooks/use-run-param';
import { PlatformGroupsSection } from './platform-groups-section';
import { RecentRuns } from './recent-runs';
import { RunPanel } from './run-results';
import { primaryButton, smallButton, toggled } from './styles';

const testKey = (aid: string, testId: string) => `${aid}:${testId}`;

/** Bulk Labels: create a label (a platform tag) and assign it to chosen tests across account groups. */
export function LabelsTab() {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const [tests, setTests] = useState<BulkTestsList['groups'] | null>(null);
  const loadTestsOf = useLoadTests();
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
  const [filter, setFilter] = useState('');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [color, setColor] = useState('#1f77b4');
  const startRun = useStartRun();

  const visible = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (tests ?? []).map((group) => ({
      ...group,
      tests: needle
        ? group.tests.filter(
            (test) => test.testName.toLowerCase().includes(needle) || test.type.toLowerCase().includes(needle),
          )
        : group.tests,
    }));
  }, [filter, tests]);

  const loadTests = async () => {
    if (platform.chosen.length === 0) {
      toast.error(BULK_MESSAGES.groupsRequired);
      return;
    }
    try {
      const loaded = await loadTestsOf.mutateAsync({ token: platform.token, accountGroups: platform.chosen });
      for (const failed of loaded.groups.filter((group) => group.error))
        toast.error(`${failed.accountGroupName}: ${failed.error ?? 'Failed to load tests'}`);
      setTests(loaded.groups);
      setChosen(new Set());
    } catch (error) {
      toastPlatformError(error, 'Failed to load tests');
    }
  };

  const setMany = (add: boolean) =>
    setChosen((previous) => {
      const next = new Set(previous);
      for (const group of visible)
        for (const test of group.tests) {
          if (add) next.add(testKey(group.aid, test.testId));
          else next.delete(testKey(group.aid, test.testId));
        }
      return next;
    });

  const targets = (tests ?? [])
    .map((group) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      testIds: group.tests.filter((test) => chosen.has(testKey(group.aid, test.testId))).map((test) => test.testId),
    }))
    .filter((target) => target.testIds.length > 0);

  const apply = () => {
    if (!key.trim() || !value.trim()) {
      toast.error('The label needs a key and a value');
      return;
    }
    if (targets.length === 0) {
      toast.error('Select at least one test');
      return;
    }
    if (!platform.organization) return;
    startRun.mutate(
      {
        kind: 'labels',
        token: platform.token,
        organization: platform.organization,
        tag: { key: key.trim(), value: value.trim(), color },
        targets,
      },
      {
        onSuccess: (run) => openRun(run.id),
        onError: (error) => toastPlatformError(error, 'Failed to apply the label'),
      },
    );
  };

  if (runId)
    return (
      <RunPanel
        runId={runId}
        title="Label Results"
        newLabel="Label Other Tests"
        onNew={() => {
          setChosen(new Set());
          openRun(null);
        }}
      />
    );

  const testCount = targets.reduce((sum, target) => sum + target.testIds.length, 0);
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Creates a label (a platform tag) once for the organization and assigns it to the tests you choose, in every
        account group.
      </p>
      <PlatformGroupsSection platform={platform} />
      {platform.groups && (
        <button
          type="button"
          className={primaryButton}
          disabled={loadTestsOf.isPending}
          onClick={() => void loadTests()}
        >
          {loadTestsOf.isPending ? 'Loading tests…' : 'Load Tests'}
        </button>
      )}
      {tests && (
        <section className="space-y-3" aria-label="Tests">
          <div className="flex flex-wrap items-center gap-2">
            <input
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="Filter tests by name or type"
              aria-label="Filter tests"
              className="rounded-md border border-slate-300 px-3 py-1.5"
            />
            <button type="button" className={smallButton} onClick={() => setMany(true)}>
              Select All Tests
            </button>
            <button type="button" className={smallButton} onClick={() => setMany(false)}>
              Deselect All Tests
            </button>
          </div>
          <div className="max-h-96 space-y-3 overflow-y-auto rounded-md border border-slate-200 p-3">
            {visible.map((group) => (
              <fieldset key={group.aid}>
                <legend className="font-medium">{group.accountGroupName}</legend>
                {group.tests.length === 0 && <p className="text-sm text-slate-500">No tests.</p>}
                <ul className="grid gap-1 sm:grid-cols-2">
                  {group.tests.map((test) => (
                    <li key={test.testId}>
                      <label className="flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          checked={chosen.has(testKey(group.aid, test.testId))}
                          onChange={() => setChosen((previous) => toggled(previous, testKey(group.aid, test.testId)))}
                        />
                        {test.testName}
                        <span className="text-xs text-slate-500">{test.type}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            ))}
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <label className="text-sm">
              <span className="block font-medium text-slate-700">Label key</span>
              <input
                value={key}
                onChange={(event) => setKey(event.target.value)}
                className="mt-1 rounded-md border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="text-sm">
              <span className="block font-medium text-slate-700">Label value</span>
              <input
                value={value}
                onChange={(event) => setValue(event.target.value)}
                className="mt-1 rounded-md border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="text-sm">
              <span className="block font-medium text-slate-700">Colour</span>
              <input
                type="color"
                value={color}
                onChange={(event) => setColor(event.target.value)}
                className="mt-1 h-10 w-16 rounded border border-slate-300"
              />
            </label>
          </div>
          <p className="text-sm text-slate-700" data-testid="labels-plan">
            {testCount === 0
              ? 'Choose the tests to label.'
              : `The label goes on ${testCount} ${testCount === 1 ? 'test' : 'tests'} in ${targets.length} account ${
                  targets.length === 1 ? 'group' : 'groups'
                }.`}
          </p>
          <button type="button" className={primaryButton} disabled={startRun.isPending} onClick={apply}>
            {startRun.isPending ? 'Applying…' : 'Apply Label'}
          </button>
        </section>
      )}
      <RecentRuns view="labels" onOpen={openRun} />
    </div>
  );
}
