import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import {
  BULK_MESSAGES,
  BULK_TEMPLATE_LIMIT,
  isFinished,
  newTestTemplate,
  templateErrors,
  type PlanCell,
  type TestTemplate,
} from '@ce/contract';
import { toast } from '../../../components/ui/toast-store';
import { agentCatalogue, type GroupAgents } from '../agent-catalogue';
import { useLoadAgents, usePlanTests } from '../api/platform-reads';
import { useBulkRun, useStartRun } from '../api/runs';
import { downloadText } from '../download';
import { toastPlatformError, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../hooks/use-run-param';
import { readTemplatesFile, templatesFileText } from '../template-file';
import { CellGrid, type GridCell } from './cell-grid';
import { GroupSelect } from './group-select';
import { RecentRuns } from './recent-runs';
import { FIELD_LABELS, TemplateCard } from './template-card';
import { TestRunPanel } from './test-run-panel';
import { TokenField } from './token-field';
import { Stepper } from '../../../components/ui/stepper';
import { primaryButton, secondaryButton } from './styles';

export interface BulkTestsWizardProps {
  /** 'sidebar': the Bulk Tests page (progress sidebar, Alpha badge, Next); 'stepper': the hub's tab (Continue, checks). */
  variant: 'sidebar' | 'stepper';
}

interface Card {
  key: number;
  template: TestTemplate;
}

const STEP_LABELS = ['Authentication', 'Account Groups', 'Test Configuration'];
const PLAN_LABEL: Record<PlanCell['action'], string> = { create: 'Create', exists: 'Exists, skip', blocked: 'Blocked' };

/**
 * The bulk test creator: a token, account groups, test templates; then a server run that creates
 * every template in every group, throttled, resumable, undoable. Both page variants share this code.
 */
export function BulkTestsWizard({ variant }: BulkTestsWizardProps) {
  const platform = usePlatformGroups('bulk-tests');
  const [runId, openRun] = useRunParam();
  const [step, setStep] = useState(1);
  const [agents, setAgents] = useState<{ key: string; groups: GroupAgents[] } | null>(null);
  const loadAgents = useLoadAgents();
  const agentsLoading = loadAgents.isPending;
  const nextKey = useRef(1);
  const [cards, setCards] = useState<Card[]>(() => [{ key: 0, template: newTestTemplate() }]);
  const [showErrors, setShowErrors] = useState(false);
  const [planned, setPlanned] = useState<{ groupKey: string; templates: TestTemplate[]; cells: PlanCell[] } | null>(
    null,
  );
  const planTests = usePlanTests();
  const planning = planTests.isPending;
  const startRun = useStartRun();
  const { data: run } = useBulkRun(runId);
  const runActive = startRun.isPending || (run !== undefined && !isFinished(run));
  const fileInput = useRef<HTMLInputElement>(null);

  const templates = useMemo(() => cards.map((card) => card.template), [cards]);
  const groupKey = platform.chosen.map((group) => group.aid).join(',');
  const catalogue = useMemo(() => agentCatalogue(agents?.groups ?? []), [agents]);
  const formValid = templates.every((template) => Object.keys(templateErrors(template)).length === 0);
  // A plan describes one set of templates and groups: after any change (a new templates list, other
  // groups) it is not shown any more.
  const plan = planned?.groupKey === groupKey && planned.templates === templates ? planned.cells : null;
  const planByCell = useMemo(() => new Map(plan?.map((cell) => [`${cell.templateIndex}:${cell.aid}`, cell])), [plan]);

  const reset = () => {
    platform.reset();
    setAgents(null);
    setCards([{ key: nextKey.current++, template: newTestTemplate() }]);
    setShowErrors(false);
    setPlanned(null);
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
      } catch (error) {
        toastPlatformError(error, BULK_MESSAGES.agentsFailed);
        return;
      }
    }
    setStep(3);
  };

  const go = (target: number) => {
    if (target === 1) setStep(1);
    else if (target === 2 && platform.groups) setStep(2);
    else if (target === 3) void goToTemplates();
  };

  /** The checks 'Execute Bulk Tests' and 'Preview Plan' share; toasts say what is missing. */
  const ready = () => {
    setShowErrors(true);
    if (!platform.token) {
      toast.error(BULK_MESSAGES.tokenRequired);
      return false;
    }
    if (platform.chosen.length === 0 || !platform.organization) {
      toast.error(BULK_MESSAGES.groupsRequired);
      return false;
    }
    if (!formValid) {
      toast.error(BULK_MESSAGES.formIncomplete);
      return false;
    }
    return true;
  };

  const preview = async () => {
    if (!ready()) return;
    try {
      const { cells } = await planTests.mutateAsync({
        token: platform.token,
        accountGroups: platform.chosen,
        templates,
      });
      setPlanned({ groupKey, templates, cells });
    } catch (error) {
      toastPlatformError(error, 'Failed to plan the run');
    }
  };

  const execute = () => {
    if (!ready() || !platform.organization) return;
    startRun.mutate(
      {
        kind: 'tests',
        token: platform.token,
        organization: platform.organization,
        accountGroups: platform.chosen,
        templates,
      },
      {
        onSuccess: (started) => openRun(started.id),
        onError: (error) => toastPlatformError(error, BULK_MESSAGES.createFailed),
      },
    );
  };

  const updateCard = (key: number, template: TestTemplate) =>
    setCards((current) => current.map((card) => (card.key === key ? { key, template } : card)));
  const removeCard = (key: number) => {
    if (cards.length <= 1) {
      toast.error(BULK_MESSAGES.templateRequired);
      return;
    }
    setCards((current) => current.filter((card) => card.key !== key));
  };
  const addCard = () => {
    if (cards.length >= BULK_TEMPLATE_LIMIT) {
      toast.warning(`At most ${BULK_TEMPLATE_LIMIT} templates in one session`);
      return;
    }
    setCards((current) => [...current, { key: nextKey.current++, template: newTestTemplate() }]);
  };

  const importTemplates = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const result = await readTemplatesFile(file);
    if (!result.ok) {
      toast.error(result.error, { title: 'Import failed' });
      return;
    }
    setCards(result.templates.map((template) => ({ key: nextKey.current++, template })));
    setShowErrors(false);
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
          ['Templates', cards.length, 'info-templates'],
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
    return { status: cell.action, label: PLAN_LABEL[cell.action], detail: cell.reason ?? missing };
  };

  const content = runOnly ? null : (
    // A run was started from what is shown: it stays as it was, read-only, until a new session.
    <fieldset disabled={runId !== null} className="min-w-0 space-y-6 disabled:opacity-75">
      {step === 1 && (
        <section className="space-y-4" aria-label="Authentication">
          <h2 className="text-xl font-semibold">Authentication</h2>
          <p className="text-sm text-slate-600">
            Paste the API token of an Org Admin of the customer&apos;s organization. It stays in this page&apos;s memory
            and is kept by the server only while a run needs it.
          </p>
          <TokenField list="bulk-tests" value={platform.rawToken} onChange={platform.setToken} />
          <div className="flex justify-end">
            <button
              type="button"
              className={primaryButton}
              disabled={platform.loading}
              onClick={() => void goToGroups()}
            >
              {platform.loading ? 'Checking…' : nextLabel}
            </button>
          </div>
        </section>
      )}
      {step === 2 && platform.groups && (
        <section className="space-y-4" aria-label="Account Groups">
          <h2 className="text-xl font-semibold">Account Groups</h2>
          <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
          {quickInfo}
          <div className="flex justify-between">
            <button type="button" className={secondaryButton} onClick={() => setStep(1)}>
              Back
            </button>
            <button
              type="button"
              className={primaryButton}
              disabled={platform.chosen.length === 0 || agentsLoading}
              onClick={() => void goToTemplates()}
            >
              {agentsLoading ? 'Loading agents…' : nextLabel}
            </button>
          </div>
        </section>
      )}
      {step === 3 && (
        <section className="space-y-4" aria-label="Test Configuration">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-xl font-semibold">Test Configuration</h2>
            <div className="flex gap-2 text-sm">
              <button
                type="button"
                className={secondaryButton}
                onClick={() => downloadText('bulk-test-templates.json', templatesFileText(templates))}
              >
                Export Templates
              </button>
              <button type="button" className={secondaryButton} onClick={() => fileInput.current?.click()}>
                Import Templates
              </button>
              <input
                ref={fileInput}
                type="file"
                accept="application/json,.json"
                className="hidden"
                aria-label="Templates file"
                onChange={(event) => void importTemplates(event)}
              />
            </div>
          </div>
          {quickInfo}
          {cards.map((card, index) => (
            <TemplateCard
              key={card.key}
              index={index}
              template={card.template}
              onChange={(template) => updateCard(card.key, template)}
              onRemove={() => removeCard(card.key)}
              catalogue={catalogue}
              groupAgents={agents?.groups ?? []}
              showErrors={showErrors}
              labels={FIELD_LABELS[variant]}
            />
          ))}
          <button type="button" className={secondaryButton} onClick={addCard}>
            Add Another Test Template
          </button>
          {plan && (
            <div className="space-y-1" data-testid="plan">
              <CellGrid
                caption="Plan: what each template does in each account group"
                templateNames={templates.map((template) => template.testName)}
                groups={platform.chosen}
                cell={planCell}
              />
              <p className="text-sm text-slate-600">
                {plan.filter((cell) => cell.action === 'create').length} to create,{' '}
                {plan.filter((cell) => cell.action === 'exists').length} already exist and will be skipped,{' '}
                {plan.filter((cell) => cell.action === 'blocked').length} cannot be created.
              </p>
            </div>
          )}
          <div className="flex flex-wrap justify-between gap-2">
            <button type="button" className={secondaryButton} onClick={() => setStep(2)}>
              Back
            </button>
            <div className="flex gap-2">
              <button type="button" className={secondaryButton} disabled={planning} onClick={() => void preview()}>
                {planning ? 'Planning…' : 'Preview Plan'}
              </button>
              <button type="button" className={primaryButton} disabled={runActive} onClick={execute}>
                {runActive ? 'Creating Tests...' : 'Execute Bulk Tests'}
              </button>
            </div>
          </div>
        </section>
      )}
    </fieldset>
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
