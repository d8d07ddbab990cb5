import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, useState } from 'react';
import { FormProvider, useFieldArray, useForm, useWatch } from 'react-hook-form';
import {
  BULK_MESSAGES,
  BULK_TEMPLATE_LIMIT,
  bulkTestsFormSchema,
  isFinished,
  newTestTemplate,
  type BulkTestsFormOutput,
  type BulkTestsFormValues,
  type ConflictChoice,
  type PlanCell,
  type TestTemplate,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { FileButton } from '../../../components/ui/file-button';
import { toast } from '../../../components/ui/toast-store';
import { agentCatalogue, type GroupAgents } from '../agent-catalogue';
import { useLoadAgents } from '../api/agents';
import { usePlanTests } from '../api/plan-tests';
import { useBulkRun } from '../api/run';
import { useStartRun } from '../api/start-run';
import { downloadText } from '../../../lib/download';
import { platformErrors, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../../../lib/use-run-param';
import { readTemplatesFile, templatesFileText } from '../template-file';
import { CellGrid, type GridCell } from './cell-grid';
import { GroupSelect } from './group-select';
import { RecentRuns } from './recent-runs';
import { FIELD_LABELS, TemplateCard } from './template-card';
import { TestRunPanel } from './test-run-panel';
import { TokenStep } from './token-step';
import { Stepper } from '../../../components/ui/stepper';

export interface BulkTestsWizardProps {
  /** 'sidebar': the Bulk Tests page (progress sidebar, Alpha badge, Next); 'stepper': the hub's tab (Continue, checks). */
  variant: 'sidebar' | 'stepper';
}

const STEP_LABELS = ['Authentication', 'Account Groups', 'Test Configuration'];
const PLAN_LABEL: Record<ConflictChoice, Record<PlanCell['action'], string>> = {
  skip: { create: 'Create', exists: 'Exists, skip', blocked: 'Blocked' },
  rename: { create: 'Create', exists: 'Exists, rename', blocked: 'Blocked' },
};

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
  const cards = useFieldArray({ control: form.control, name: 'templates' });
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
  const conflicts = plan?.filter((cell) => cell.action === 'exists').length ?? 0;
  const planByCell = useMemo(() => new Map(plan?.map((cell) => [`${cell.templateIndex}:${cell.aid}`, cell])), [plan]);

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

  const removeCard = (index: number) => {
    if (cards.fields.length <= 1) toast.error(BULK_MESSAGES.templateRequired);
    else cards.remove(index);
  };
  const addCard = () => {
    if (cards.fields.length >= BULK_TEMPLATE_LIMIT)
      toast.warning(`At most ${BULK_TEMPLATE_LIMIT} templates in one session`);
    else cards.append(newTestTemplate(), { shouldFocus: false });
  };

  const importTemplates = async (file: File) => {
    const result = await readTemplatesFile(file);
    if (!result.ok) {
      toast.error(result.error, { title: 'Import failed' });
      return;
    }
    form.reset({ templates: result.templates });
    toast.success(`${result.templates.length} ${result.templates.length === 1 ? 'template' : 'templates'} imported`);
  };

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
    <dl className="grid grid-cols-3 gap-2 rounded-md bg-slate-50 p-3 text-center text-sm" aria-label="Quick Info">
      {(
        [
          ['Account groups', platform.chosen.length, 'info-groups'],
          ['Agents', catalogue.length, 'info-agents'],
          ['Templates', cards.fields.length, 'info-templates'],
        ] as const
      ).map(([label, count, testId]) => (
        <div key={testId}>
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-lg font-semibold" data-testid={testId}>
            {count}
          </dd>
        </div>
      ))}
    </dl>
  );

  const planCell = (templateIndex: number, aid: string): GridCell | undefined => {
    const cell = planByCell.get(`${templateIndex}:${aid}`);
    if (!cell) return undefined;
    const missing = cell.missingAgents.length > 0 ? `missing ${cell.missingAgents.join(', ')}` : null;
    return { status: cell.action, label: PLAN_LABEL[onConflict][cell.action], detail: cell.reason ?? missing };
  };

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
          <section className="space-y-4" aria-label="Account Groups">
            <h2 className="text-xl font-semibold">Account Groups</h2>
            <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
            {quickInfo}
            <div className="flex justify-between">
              <Button onClick={() => setStep(1)}>Back</Button>
              <Button
                variant="primary"
                disabled={platform.chosen.length === 0}
                busy={agentsLoading}
                busyLabel="Loading agents"
                onClick={() => void goToTemplates()}
              >
                {nextLabel}
              </Button>
            </div>
          </section>
        )}
        {step === 3 && (
          <section className="space-y-4" aria-label="Test Configuration">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-xl font-semibold">Test Configuration</h2>
              <div className="flex gap-2 text-sm">
                <Button
                  size="sm"
                  onClick={() => downloadText('bulk-test-templates.json', templatesFileText(templates))}
                >
                  Export Templates
                </Button>
                <FileButton
                  size="sm"
                  inputLabel="Templates file"
                  accept="application/json,.json"
                  onFile={(file) => void importTemplates(file)}
                >
                  Import Templates
                </FileButton>
              </div>
            </div>
            {quickInfo}
            {cards.fields.map((card, index) => (
              <TemplateCard
                key={card.id}
                index={index}
                onRemove={() => removeCard(index)}
                catalogue={catalogue}
                groupAgents={agents?.groups ?? []}
                labels={FIELD_LABELS[variant]}
              />
            ))}
            <Button onClick={addCard}>Add Another Test Template</Button>
          </section>
        )}
      </fieldset>
      {/* Outside the read-only part: the templates can be planned again, and run again with another answer for taken names. */}
      {step === 3 && (
        <div className="space-y-4">
          {plan && (
            <div className="space-y-1" data-testid="plan">
              <CellGrid
                caption="Plan: what each template does in each account group"
                templateNames={templates.map((template) => template.testName ?? '')}
                groups={platform.chosen}
                cell={planCell}
              />
              <p className="text-sm text-slate-600">
                {plan.filter((cell) => cell.action === 'create').length} to create, {conflicts} already exist and will
                be {onConflict === 'skip' ? 'skipped' : 'created with a suffix'},{' '}
                {plan.filter((cell) => cell.action === 'blocked').length} cannot be created.
              </p>
              {conflicts > 0 && (
                <fieldset className="flex flex-wrap gap-4 text-sm" aria-label="Tests whose name is taken">
                  <legend className="mb-1 font-medium">A test of that name is already in the account group:</legend>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="on-conflict"
                      checked={onConflict === 'skip'}
                      onChange={() => setOnConflict('skip')}
                    />
                    Skip it
                  </label>
                  <label className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="on-conflict"
                      checked={onConflict === 'rename'}
                      onChange={() => setOnConflict('rename')}
                    />
                    Create mine with a suffix, for example &quot;
                    {plan.find((cell) => cell.action === 'exists')?.testName} (2)&quot;
                  </label>
                </fieldset>
              )}
            </div>
          )}
          <div className="flex flex-wrap justify-between gap-2">
            <Button disabled={runId !== null} onClick={() => setStep(2)}>
              Back
            </Button>
            <div className="flex gap-2">
              <Button busy={planning} busyLabel="Planning" onClick={preview}>
                Preview Plan
              </Button>
              <Button
                variant="primary"
                disabled={runActive || ranAsShown}
                aria-describedby={ranAsShown ? 'execute-hint' : undefined}
                onClick={execute}
              >
                {runActive ? 'Creating Tests...' : 'Execute Bulk Tests'}
              </Button>
            </div>
          </div>
          {ranAsShown && (
            <p id="execute-hint" data-testid="execute-hint" className="text-right text-sm text-slate-600">
              This run has ended: to run again, start a new session.
            </p>
          )}
        </div>
      )}
    </FormProvider>
  );

  const recent = !runId && step === 1 && <RecentRuns view="tests" onOpen={openRun} />;
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
        {content}
        {results}
        {recent}
      </div>
    );
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      {progress}
      <div className="min-w-0 flex-1 space-y-6">
        {content}
        {results}
        {recent}
      </div>
    </div>
  );
}
