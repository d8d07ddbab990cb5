import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useForm, type FieldErrors } from 'react-hook-form';
import { BULK_MESSAGES, labelsFormSchema, type BulkTestsList } from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { TextInput } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { useLoadTests } from '../api/tests';
import { useStartRun } from '../api/start-run';
import { platformErrors, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../../../lib/use-run-param';
import { PlatformGroupsSection } from './platform-groups-section';
import { RecentRuns } from './recent-runs';
import { BulkRunPanel } from './run-results';

type GroupTests = BulkTestsList['groups'][number];
type Test = GroupTests['tests'][number];

interface LabelsForm {
  key: string;
  value: string;
  color: string;
  tests: string[];
}
const DEFAULTS: LabelsForm = { key: '', value: '', color: '#1f77b4', tests: [] };

const testKey = (aid: string, testId: string) => `${aid}:${testId}`;
const byTest = (test: Test, needle: string) =>
  test.testName.toLowerCase().includes(needle) || test.type.toLowerCase().includes(needle);
const firstProblem = (errors: FieldErrors<LabelsForm>) =>
  errors.key?.message ?? errors.value?.message ?? errors.color?.message ?? errors.tests?.message;

/** Bulk Labels: create a label (a platform tag) and assign it to chosen tests across account groups. */
export function LabelsTab() {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const [tests, setTests] = useState<GroupTests[] | null>(null);
  const loadTestsOf = useLoadTests(platformErrors('Failed to load tests'));
  const [filter, setFilter] = useState('');
  const startRun = useStartRun(platformErrors('Failed to apply the label'));
  const form = useForm<LabelsForm>({ resolver: zodResolver(labelsFormSchema), defaultValues: DEFAULTS });
  const { field: testsField } = useController({ control: form.control, name: 'tests' });
  const chosen = useMemo(() => new Set(testsField.value), [testsField.value]);
  const choose = (next: ReadonlySet<string>) => testsField.onChange([...next]);

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
      form.setValue('tests', []);
    } catch {
      // Said by the query client's error toast (platformErrors).
    }
  };

  /** Select All Tests and Deselect All Tests act on the tests the filter shows, in every group. */
  const setShown = (add: boolean) => {
    const needle = filter.trim().toLowerCase();
    const next = new Set(chosen);
    for (const group of tests ?? [])
      for (const test of group.tests)
        if (!needle || byTest(test, needle)) {
          if (add) next.add(testKey(group.aid, test.testId));
          else next.delete(testKey(group.aid, test.testId));
        }
    choose(next);
  };

  const targets = (tests ?? [])
    .map((group) => ({
      aid: group.aid,
      accountGroupName: group.accountGroupName,
      testIds: group.tests.filter((test) => chosen.has(testKey(group.aid, test.testId))).map((test) => test.testId),
    }))
    .filter((target) => target.testIds.length > 0);

  const apply = form.handleSubmit(
    ({ key, value, color }) => {
      if (!platform.organization) return;
      startRun.mutate(
        {
          kind: 'labels',
          token: platform.token,
          organization: platform.organization,
          tag: { key, value, color },
          targets,
        },
        {
          onSuccess: (run) => openRun(run.id),
        },
      );
    },
    (errors) => toast.error(firstProblem(errors) ?? 'Please complete the label'),
  );

  if (runId)
    return (
      <BulkRunPanel
        runId={runId}
        title="Label Results"
        newLabel="Label Other Tests"
        onNew={() => {
          form.setValue('tests', []);
          openRun(null);
        }}
      />
    );

  const testCount = targets.reduce((sum, target) => sum + target.testIds.length, 0);
  const { errors } = form.formState;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Creates a label (a platform tag) once for the organization and assigns it to the tests you choose, in every
        account group.
      </p>
      <PlatformGroupsSection platform={platform} />
      {platform.groups && (
        <Button
          variant="primary"
          busy={loadTestsOf.isPending}
          busyLabel="Loading tests"
          onClick={() => void loadTests()}
        >
          Load Tests
        </Button>
      )}
      {tests && (
        <form onSubmit={(event) => void apply(event)} noValidate>
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
              <Button size="sm" onClick={() => setShown(true)}>
                Select All Tests
              </Button>
              <Button size="sm" onClick={() => setShown(false)}>
                Deselect All Tests
              </Button>
            </div>
            <div className="max-h-96 space-y-3 overflow-y-auto rounded-md border border-slate-200 p-3">
              {tests.map((group) => (
                <fieldset key={group.aid}>
                  <legend className="font-medium">{group.accountGroupName}</legend>
                  <CheckList
                    items={group.tests}
                    itemKey={(test) => testKey(group.aid, test.testId)}
                    matches={byTest}
                    search={filter}
                    controls={false}
                    selected={chosen}
                    onSelectedChange={choose}
                    label={`Tests in ${group.accountGroupName}`}
                    searchLabel="Filter tests"
                    emptyText={group.tests.length === 0 ? 'No tests.' : 'No test matches the filter.'}
                    height="12rem"
                    renderItem={(test) => (
                      <>
                        <span className="truncate">{test.testName}</span>
                        <span className="text-xs text-slate-500">{test.type}</span>
                      </>
                    )}
                  />
                </fieldset>
              ))}
            </div>
            <div className="flex flex-wrap items-start gap-3">
              <TextInput label="Label key" error={errors.key?.message} {...form.register('key')} />
              <TextInput label="Label value" error={errors.value?.message} {...form.register('value')} />
              <TextInput
                label="Colour"
                type="color"
                className="h-10 w-16 p-1"
                error={errors.color?.message}
                {...form.register('color')}
              />
            </div>
            <p className="text-sm text-slate-700" data-testid="labels-plan">
              {testCount === 0
                ? 'Choose the tests to label.'
                : `The label goes on ${testCount} ${testCount === 1 ? 'test' : 'tests'} in ${targets.length} account ${
                    targets.length === 1 ? 'group' : 'groups'
                  }.`}
            </p>
            <Button type="submit" variant="primary" busy={startRun.isPending} busyLabel="Applying">
              Apply Label
            </Button>
          </section>
        </form>
      )}
      <RecentRuns view="labels" onOpen={openRun} />
    </div>
  );
}
