import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import {
  ALERTS_MIGRATION_MESSAGES,
  type MigrationDecision,
  type MigrationPlan,
  type MigrationPlanItem,
  type MigrationRequest,
  type MigrationRules,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { useConfirmation } from '../../../components/ui/confirm-dialog';
import { toast } from '../../../components/ui/toast-store';
import { usePlanMigration } from '../api/plan';
import { useLoadRules } from '../api/rules';
import { useStartMigration } from '../api/start';
import { customerTokenErrors as migrationErrors } from '../../../lib/error-toasts';
import { useCustomer } from '../../../lib/use-customer';
import { useRunParam } from '../../../lib/use-run-param';
import {
  MIGRATION_DEFAULTS,
  migrationFormSchema,
  type MigrationForm,
  type MigrationFormInput,
} from '../migration-form';
import { MigrationRunPanel } from './migration-run';
import { OptionsStep } from './options-step';
import { decisionKey, PlanView, unableToAlert } from './plan-view';
import { RecentMigrations } from './recent-migrations';
import { RulesStep } from './rules-step';
import { SourceStep } from './source-step';
import { TargetsStep, type Group } from './targets-step';

/** What is missing, in the order the tool has always said it: the rules, then the targets. */
const firstProblem = (errors: FieldErrors<MigrationFormInput>) =>
  errors.sourceAid
    ? ALERTS_MIGRATION_MESSAGES.sourceRequired
    : (errors.ruleIds?.message ?? errors.targets?.message ?? 'Check the migration’s options');

/**
 * Alerts Migration: the source (token, organization, account group) and its rules; the targets (groups
 * of the same organization, or of another with its own token); the options; the plan, with each
 * conflict decided; then the migration itself, carried out by the server, with its results and Undo.
 * One component per step; the choices are one react-hook-form form over the contract's schemas.
 */
export function AlertsMigrationTool() {
  const [runId, openRun] = useRunParam();
  const source = useCustomer('alerts-migration');
  const other = useCustomer('alerts-migration');
  const form = useForm<MigrationFormInput, unknown, MigrationForm>({
    resolver: zodResolver(migrationFormSchema),
    defaultValues: MIGRATION_DEFAULTS,
  });
  const [sourceAid, elsewhere] = useWatch({ control: form.control, name: ['sourceAid', 'elsewhere'] });
  const [rules, setRules] = useState<MigrationRules | null>(null);
  const [plan, setPlan] = useState<MigrationPlan | null>(null);
  const [decisions, setDecisions] = useState<Map<string, MigrationDecision['choice']>>(() => new Map());
  const loadRules = useLoadRules(migrationErrors('Failed to load the alert rules'));
  const planMigration = usePlanMigration(migrationErrors('Failed to plan the migration'));
  const start = useStartMigration(migrationErrors('Failed to start the migration'));
  const confirmation = useConfirmation();

  // Any change to what is asked makes the plan shown stale: it is planned again before applying.
  const { subscribe } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: () => setPlan(null) }), [subscribe]);

  const targetGroups: Group[] = elsewhere
    ? other.inOrganization
    : source.inOrganization.filter((group) => group.aid !== sourceAid);

  const readRules = async () => {
    if (!source.organization || !sourceAid) {
      toast.error(ALERTS_MIGRATION_MESSAGES.sourceRequired);
      return;
    }
    try {
      const loaded = await loadRules.mutateAsync({
        token: source.token,
        organization: source.organization,
        aid: sourceAid,
      });
      if (loaded.rules.length === 0) toast.info(ALERTS_MIGRATION_MESSAGES.noRules);
      setRules(loaded);
      form.setValue('ruleIds', []);
      setPlan(null);
    } catch {
      // Said by the query client's error toast (migrationErrors).
    }
  };

  /** The request the server plans and carries out, or null (and a toast) when something is missing. */
  const request = (values: MigrationForm): MigrationRequest | null => {
    if (!source.organization || !rules) return null;
    const chosenTargets = targetGroups.filter((group) => values.targets.includes(group.aid));
    if (chosenTargets.length === 0) {
      toast.error(ALERTS_MIGRATION_MESSAGES.targetsRequired);
      return null;
    }
    if (values.elsewhere && !other.organization) {
      toast.error(ALERTS_MIGRATION_MESSAGES.targetTokenRequired);
      return null;
    }
    return {
      token: source.token,
      organization: source.organization,
      aid: values.sourceAid,
      ruleIds: values.ruleIds,
      targets: chosenTargets.map((group) => ({ aid: group.aid })),
      ...(values.elsewhere && other.organization
        ? { targetOrganization: { token: other.token, organization: other.organization } }
        : {}),
      options: values.options,
      decisions: [...decisions].map(([key, choice]) => {
        const [ruleId = '', aid = ''] = key.split('\u0000');
        return { ruleId, aid, choice };
      }),
    };
  };

  const submit = (then: (asked: MigrationRequest) => void) =>
    form.handleSubmit(
      (values) => {
        const asked = request(values);
        if (asked) then(asked);
      },
      (errors) => toast.error(firstProblem(errors)),
    );

  const preview = submit((asked) =>
    planMigration.mutate(asked, {
      onSuccess: setPlan,
      // A failure is said by the query client's error toast.
    }),
  );

  const decide = (item: MigrationPlanItem, choice: MigrationDecision['choice'] | null) =>
    setDecisions((current) => {
      const next = new Map(current);
      if (choice) next.set(decisionKey(item), choice);
      else next.delete(decisionKey(item));
      return next;
    });

  /** The target groups' names of a request, as the page shows them. */
  const chosenTargetsOf = (asked: MigrationRequest) =>
    asked.targets.map(
      (target) => targetGroups.find((group) => group.aid === target.aid)?.accountGroupName ?? target.aid,
    );

  const apply = submit((asked) => {
    if (!plan || plan.problems.length > 0) return;
    const undecided = plan.items.filter((item) => item.status === 'conflict' && !decisions.has(decisionKey(item)));
    if (undecided.length > 0) {
      toast.error(ALERTS_MIGRATION_MESSAGES.conflictsUndecided);
      return;
    }
    // It writes into the customer's account (perhaps another organization's): asked first, as restore and undo are.
    const into = chosenTargetsOf(asked);
    const organization = asked.targetOrganization?.organization.name ?? asked.organization.name;
    const silent = unableToAlert(plan);
    const verb = asked.options.mode === 'move' ? 'Move' : 'Copy';
    // The plan's writes, and each conflict decided since as an update or a new rule.
    const writes =
      plan.writes +
      plan.items.filter((item) => item.status === 'conflict' && decisions.get(decisionKey(item)) !== 'skip').length;
    // Every rule left as it is (skipped, or left out): nothing to ask, nothing to start.
    if (writes === 0) {
      toast.info(ALERTS_MIGRATION_MESSAGES.nothingToWrite);
      return;
    }
    confirmation.ask({
      title: `Migrate into ${organization}?`,
      body: (
        <div className="space-y-2">
          <p data-testid="migration-confirmation">
            {verb} {asked.ruleIds.length} alert rule{asked.ruleIds.length === 1 ? '' : 's'} from{' '}
            {rules?.accountGroupName ?? 'the source'} into {into.join(', ')} ({organization}
            {asked.targetOrganization ? ', another organization' : ''}): {writes} write
            {writes === 1 ? '' : 's'} into the customer&apos;s account.
          </p>
          {silent.length > 0 && (
            <p className="text-sm text-amber-900">
              {silent.length === 1 ? '1 rule arrives' : `${silent.length} rules arrive`} with no test and no recipient:{' '}
              {silent.join(', ')}.
            </p>
          )}
          <p className="text-sm text-slate-600">The migration can be undone from its results.</p>
        </div>
      ),
      confirm: 'Migrate now',
      busy: 'Starting',
      run: () => start.mutateAsync(asked).then((run) => openRun(run.id)),
    });
  });

  /** Plans again, leaving out the rules that would arrive unable to alert. */
  const leaveOut = () => {
    form.setValue('options.whenUnableToAlert', 'skip');
    void preview();
  };

  if (runId)
    return (
      <MigrationRunPanel
        runId={runId}
        tokens={{ token: source.token, targetToken: other.token }}
        onOpen={openRun}
        onNew={() => {
          setPlan(null);
          setDecisions(new Map());
          openRun(null);
        }}
      />
    );

  return (
    <div className="space-y-8">
      <SourceStep
        source={source}
        form={form}
        loading={loadRules.isPending}
        onSourceChange={() => {
          setRules(null);
          form.setValue('targets', []);
        }}
        onLoadRules={() => void readRules()}
      />
      {rules && <RulesStep form={form} rules={rules} />}
      {rules && <TargetsStep form={form} other={other} groups={targetGroups} />}
      {rules && (
        <OptionsStep form={form} rules={rules} planning={planMigration.isPending} onPreview={() => void preview()} />
      )}
      {plan && (
        <>
          <PlanView plan={plan} decisions={decisions} onDecide={decide} onLeaveOut={leaveOut} />
          <div className="flex justify-end">
            <Button
              variant="primary"
              busy={start.isPending}
              busyLabel="Starting"
              disabled={plan.problems.length > 0}
              onClick={() => void apply()}
            >
              Apply Migration
            </Button>
          </div>
        </>
      )}
      <RecentMigrations onOpen={openRun} />
      {confirmation.dialog}
    </div>
  );
}
