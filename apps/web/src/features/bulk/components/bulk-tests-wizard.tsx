import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import {
  BULK_MESSAGES,
  bulkTestsFormSchema,
  isFinished,
  newTestTemplate,
  type BulkTestsFormOutput,
  type BulkTestsFormValues,
  type ConflictChoice,
  type PlanCell,
  type TestTemplate,
} from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { agentCatalogue, type GroupAgents } from '../agent-catalogue';
import { useLoadAgents } from '../api/agents';
import { usePlanTests } from '../api/plan-tests';
import { useBulkRun } from '../api/run';
import { useStartRun } from '../api/start-run';
import { platformErrors, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../../../lib/use-run-param';
import { GroupsStep } from './groups-step';
import { PlanAndExecute } from './plan-and-execute';
import { QuickInfo } from './quick-info';
import { RecentRuns } from './recent-runs';
import { TemplatesStep } from './templates-step';
import { TestRunPanel } from './test-run-panel';
import { TokenStep } from './token-step';
import { Stepper } from '../../../components/ui/stepper';

export interface BulkTestsWizardProps {
  /** 'sidebar': the Bulk Tests page (progress sidebar, Alpha badge, Next); 'stepper': the hub's tab (Continue, checks). */
  variant: 'sidebar' | 'stepper';
}

const STEP_LABELS = ['Authentication', 'Account Groups', 'Test Configuration'];
/**
 * The bulk test creator: a token, account groups, test templates; then a server run that creates
 * every template in every group, throttled, resumable, undoable. Both page variants share this code.
 */
export function BulkTestsWizard({ variant }: BulkTestsWizardProps) {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const [step, setStep] = useState(1);
  const [agents, setAgents] = useState<{ key: string; groups: GroupAgents[] } | null>(null);
  const loadAgents = useLoadAgents(platformErrors(BULK_MESSAGES.agentsFailed));
  const agentsLoading = loadAgents.isPending;
  const form = useForm<BulkTestsFormValues, unknown, BulkTestsFormOutput>({
    resolver: zodResolver(bulkTestsFormSchema),
    defaultValues: { templates: [newTestTemplate()] },
    mode: 'onTouched',
  });
  const templates = useWatch({ control: form.control, name: 'templates' });
  const [planned, setPlanned] = useState<{ groupKey: string; cells: PlanCell[] } | null>(null);
  const [onConflict, setOnConflict] = useState<ConflictChoice>('skip');
  // A plan describes one set of templates: any edit to them and it is not shown any more.
  const { subscribe } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: () => setPlanned(null) }), [subscribe]);
  const planTests = usePlanTests(platformErrors('Failed to plan the run'));
  const planning = planTests.isPending;
  const startRun = useStartRun(platformErrors(BULK_MESSAGES.createFailed));
  const { data: run } = useBulkRun(runId);
  const runActive = startRun.isPending || (run !== undefined && !isFinished(run));
  // What Execute would send. Once a run has ended, Execute waits until this changes: the same input again
  // would only start a run with nothing new to do.
  const executeInput = JSON.stringify([platform.token, platform.chosen, templates, onConflict]);
  const [ranWith, setRanWith] = useState<string | null>(null);
  const ranAsShown = runId !== null && !runActive && ranWith === executeInput;

  const groupKey = platform.chosen.map((group) => group.aid).join(',');
  const catalogue = useMemo(() => agentCatalogue(agents?.groups ?? []), [agents]);
  const formValid = form.formState.isValid;
  // ... and one set of account groups.
  const plan = planned?.groupKey === groupKey ? planned.cells : null;

  const reset = () => {
    platform.reset();
    setAgents(null);
    form.reset({ templates: [newTestTemplate()] });
    setPlanned(null);
    setRanWith(null);
    setStep(1);
    openRun(null);
  };

  const goToGroups = async () => {
    if (await platform.load()) setStep(2);
  };

  const goToTemplates = async () => {
    if (platform.chosen.length === 0) {
      toast.error(BULK_MESSAGES.groupsRequired);
      return;
    }
    if (agents?.key !== groupKey) {
      try {
        const loaded = await loadAgents.mutateAsync({ token: platform.token, accountGroups: platform.chosen });
        setAgents({ key: groupKey, groups: loaded.groups });
        for (const failed of loaded.groups.filter((group) => group.error))
          toast.error(`${failed.accountGroupName}: ${failed.error ?? BULK_MESSAGES.agentsFailed}`);
        if (loaded.groups.every((group) => group.agents.length === 0)) toast.warning(BULK_MESSAGES.noAgents);
      } catch {
        return; // Said by the query client's error toast (platformErrors).
      }
    }
    setStep(3);
  };

  const go = (target: number) => {
    if (target === 1) setStep(1);
    else if (target === 2 && platform.groups) setStep(2);
    else if (target === 3) void goToTemplates();
  };

  /**
   * 'Execute Bulk Tests' and 'Preview Plan' check the same things, in the spec's order and words: the
   * token, the groups, then every card (the form's schema; each field then shows its own error).
   */
  const whenReady = (act: (templates: TestTemplate[]) => void) => () => {
    if (!platform.token) toast.error(BULK_MESSAGES.tokenRequired);
    else if (platform.chosen.length === 0 || !platform.organization) toast.error(BULK_MESSAGES.groupsRequired);
    else
      void form.handleSubmit(
        (values) => act(values.templates),
        () => toast.error(BULK_MESSAGES.formIncomplete),
      )();
  };

  const preview = whenReady((checked) =>
    planTests.mutate(
      { token: platform.token, accountGroups: platform.chosen, templates: checked },
      {
        onSuccess: ({ cells }) => setPlanned({ groupKey, cells }),
      },
    ),
  );

  const execute = whenReady((checked) => {
    if (!platform.organization) return;
    startRun.mutate(
      {
        kind: 'tests',
        token: platform.token,
        organization: platform.organization,
        accountGroups: platform.chosen,
        templates: checked,
        onConflict,
      },
      {
        onSuccess: (started) => {
          setRanWith(executeInput);
          openRun(started.id);
        },
      },
    );
  });

  // After a reload the wizard's memory is empty but the run lives on the server: show the run alone.
  const runOnly = runId !== null && platform.groups === null;
  const stepDone = [platform.groups !== null, platform.chosen.length > 0, formValid && agents !== null];
  const stepReachable = [true, platform.groups !== null, platform.chosen.length > 0];
  const steps = STEP_LABELS.map((label, index) => ({
    label,
    done: runOnly || stepDone[index] === true,
    // Once a run exists the form is read-only until 'Start New Bulk Test Session'.
    reachable: runId === null && stepReachable[index] === true,
  }));
  const nextLabel = variant === 'sidebar' ? 'Next' : 'Continue';

  const quickInfo = (
    <QuickInfo groups={platform.chosen.length} agents={catalogue.length} templates={templates.length} />
  );

  const content = runOnly ? null : (
    // A run was started from what is shown: it stays as it was, read-only, until a new session.
    <FormProvider {...form}>
      <fieldset disabled={runId !== null} className="min-w-0 space-y-6 disabled:opacity-75">
        {step === 1 && (
          <TokenStep platform={platform} list="bulk-tests" nextLabel={nextLabel} onNext={() => void goToGroups()}>
            <p className="text-sm text-slate-600">
              Paste the API token of an Org Admin of the customer&apos;s organization. It stays in this page&apos;s
              memory and is kept by the server only while a run needs it.
            </p>
          </TokenStep>
        )}
        {step === 2 && platform.groups && (
          <GroupsStep
            platform={platform}
            quickInfo={quickInfo}
            nextLabel={nextLabel}
            loadingAgents={agentsLoading}
            onBack={() => setStep(1)}
            onNext={() => void goToTemplates()}
          />
        )}
        {step === 3 && (
          <TemplatesStep
            variant={variant}
            quickInfo={quickInfo}
            catalogue={catalogue}
            groupAgents={agents?.groups ?? []}
          />
        )}
      </fieldset>
      {/* Outside the read-only part: the templates can be planned again, and run again with another answer for taken names. */}
      {step === 3 && (
        <PlanAndExecute
          plan={plan}
          templateNames={templates.map((template) => template.testName ?? '')}
          groups={platform.chosen}
          onConflict={onConflict}
          onConflictChange={setOnConflict}
          planning={planning}
          runActive={runActive}
          ranAsShown={ranAsShown}
          backDisabled={runId !== null}
          onBack={() => setStep(2)}
          onPreview={preview}
          onExecute={execute}
        />
      )}
    </FormProvider>
  );

  const recent = !runId && step === 1 && <RecentRuns view="tests" onOpen={openRun} />;
  // A run's results come first, above the spent form they came from.
  const results = runId && (
    <TestRunPanel runId={runId} knownToken={platform.token} onOpenRun={openRun} onNewSession={reset} />
  );
  const progress = (
    <Stepper
      steps={steps}
      current={runOnly ? 0 : step}
      onGo={go}
      variant={variant === 'sidebar' ? 'sidebar' : 'row'}
      badge={variant === 'sidebar' ? 'Alpha Development' : undefined}
    />
  );

  if (variant === 'stepper')
    return (
      <div className="space-y-4">
        {progress}
        {results}
        {content}
        {recent}
      </div>
    );
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      {progress}
      <div className="min-w-0 flex-1 space-y-6">
        {results}
        {content}
        {recent}
      </div>
    </div>
  );
}
