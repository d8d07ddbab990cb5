import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  ALERTS_MIGRATION_MESSAGES,
  type MigrationDecision,
  type MigrationOptions,
  type MigrationPlan,
  type MigrationPlanItem,
  type MigrationRequest,
  type MigrationRules,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { CheckList } from '../../../components/ui/check-list';
import { Select } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast-store';
import { usePlanMigration } from '../api/plan';
import { useLoadRules } from '../api/rules';
import { useStartMigration } from '../api/start';
import { customerTokenErrors as migrationErrors } from '../../../lib/error-toasts';
import { useCustomer } from '../../../lib/use-customer';
import { CustomerFields } from '../../../components/customer-fields';
import { MigrationRunPanel } from './migration-run';
import { decisionKey, PlanView } from './plan-view';
import { RecentMigrations } from './recent-migrations';
import { RulesTable } from './rules-table';

const DEFAULT_OPTIONS: MigrationOptions = {
  mode: 'copy',
  onConflict: 'ask',
  whenNoTestsLeft: 'keep',
  keepDefault: false,
  includeWindows: false,
  keepRecipients: false,
};

type Group = { aid: string; accountGroupName: string };
const byName = (group: Group, needle: string) => group.accountGroupName.toLowerCase().includes(needle);

/**
 * Alerts Migration: the source (token, organization, account group) and its rules; the targets (groups
 * of the same organization, or of another with its own token); the options; the plan, with each
 * conflict decided; then the migration itself, carried out by the server, with its results and Undo.
 */
export function AlertsMigrationTool() {
  const [params, setParams] = useSearchParams();
  const runId = params.get('run');
  const openRun = useCallback(
    (id: string | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('run', id);
        else next.delete('run');
        return next;
      }),
    [setParams],
  );
  const source = useCustomer('alerts-migration');
  const other = useCustomer('alerts-migration');
  const [sourceAid, setSourceAid] = useState('');
  const [rules, setRules] = useState<MigrationRules | null>(null);
  const [chosenRules, setChosenRules] = useState<Set<string>>(() => new Set());
  const [elsewhere, setElsewhere] = useState(false);
  const [targets, setTargets] = useState<Set<string>>(() => new Set());
  const [options, setOptions] = useState<MigrationOptions>(DEFAULT_OPTIONS);
  const [plan, setPlan] = useState<MigrationPlan | null>(null);
  const [decisions, setDecisions] = useState<Map<string, MigrationDecision['choice']>>(() => new Map());
  const loadRules = useLoadRules(migrationErrors('Failed to load the alert rules'));
  const planMigration = usePlanMigration(migrationErrors('Failed to plan the migration'));
  const start = useStartMigration(migrationErrors('Failed to start the migration'));

  // Any change to what is asked makes the plan shown stale: it is planned again before applying.
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPlan(null);
    };
  const targetGroups: Group[] = useMemo(
    () => (elsewhere ? other.inOrganization : source.inOrganization.filter((group) => group.aid !== sourceAid)),
    [elsewhere, other.inOrganization, source.inOrganization, sourceAid],
  );

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
      setChosenRules(new Set());
      setPlan(null);
    } catch {
      // Said by the query client's error toast (migrationErrors).
    }
  };

  const request = (): MigrationRequest | null => {
    if (!source.organization || !rules) return null;
    const chosenTargets = targetGroups.filter((group) => targets.has(group.aid));
    const problem =
      chosenRules.size === 0
        ? ALERTS_MIGRATION_MESSAGES.rulesRequired
        : chosenTargets.length === 0
          ? ALERTS_MIGRATION_MESSAGES.targetsRequired
          : elsewhere && !other.organization
            ? ALERTS_MIGRATION_MESSAGES.targetTokenRequired
            : null;
    if (problem) {
      toast.error(problem);
      return null;
    }
    return {
      token: source.token,
      organization: source.organization,
      aid: sourceAid,
      ruleIds: [...chosenRules],
      targets: chosenTargets.map((group) => ({ aid: group.aid })),
      ...(elsewhere && other.organization
        ? { targetOrganization: { token: other.token, organization: other.organization } }
        : {}),
      options,
      decisions: [...decisions].map(([key, choice]) => {
        const [ruleId = '', aid = ''] = key.split('\u0000');
        return { ruleId, aid, choice };
      }),
    };
  };

  const preview = async () => {
    const asked = request();
    if (!asked) return;
    try {
      setPlan(await planMigration.mutateAsync(asked));
    } catch {
      // Said by the query client's error toast.
    }
  };

  const decide = (item: MigrationPlanItem, choice: MigrationDecision['choice'] | null) =>
    setDecisions((current) => {
      const next = new Map(current);
      if (choice) next.set(decisionKey(item), choice);
      else next.delete(decisionKey(item));
      return next;
    });

  const apply = () => {
    const asked = request();
    if (!asked || !plan || plan.problems.length > 0) return;
    const undecided = plan.items.filter((item) => item.status === 'conflict' && !decisions.has(decisionKey(item)));
    if (undecided.length > 0) {
      toast.error(ALERTS_MIGRATION_MESSAGES.conflictsUndecided);
      return;
    }
    start.mutate(asked, { onSuccess: (run) => openRun(run.id) });
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

  const option = <K extends keyof MigrationOptions>(key: K, value: MigrationOptions[K]) =>
    changed(setOptions)({ ...options, [key]: value });
  return (
    <div className="space-y-8">
      <section className="space-y-3" aria-label="Source">
        <h2 className="text-xl font-semibold">Source</h2>
        <CustomerFields customer={source} label="OAuth Token" name="token" />
        {source.groups && (
          <div className="flex flex-wrap items-end gap-3">
            <Select
              label="Source account group"
              placeholder="Choose the account group to take the rules from"
              options={source.inOrganization.map((group) => ({ value: group.aid, label: group.accountGroupName }))}
              value={sourceAid}
              onChange={(event) => {
                setSourceAid(event.target.value);
                setRules(null);
                setTargets(new Set());
                setPlan(null);
              }}
              fieldClassName="min-w-72"
            />
            <Button
              variant="primary"
              className="mb-[2px]"
              busy={loadRules.isPending}
              busyLabel="Loading rules"
              onClick={() => void readRules()}
            >
              Load Rules
            </Button>
          </div>
        )}
      </section>

      {rules && (
        <section className="space-y-3" aria-label="Alert rules">
          <h2 className="text-xl font-semibold">Alert rules of {rules.accountGroupName}</h2>
          <RulesTable rules={rules.rules} selected={chosenRules} onSelectedChange={changed(setChosenRules)} />
        </section>
      )}

      {rules && (
        <section className="space-y-3" aria-label="Targets">
          <h2 className="text-xl font-semibold">Targets</h2>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={elsewhere}
              onChange={(event) => {
                setElsewhere(event.target.checked);
                setTargets(new Set());
                setPlan(null);
              }}
            />
            Into another organization (with its own Org Admin token)
          </label>
          {elsewhere && (
            <CustomerFields customer={other} label="OAuth Token of the target organization" name="target-token" />
          )}
          {(!elsewhere || other.groups) && (
            <CheckList
              items={targetGroups}
              itemKey={(group) => group.aid}
              renderItem={(group) => group.accountGroupName}
              matches={byName}
              selected={targets}
              onSelectedChange={changed(setTargets)}
              label="Target account groups"
              searchLabel="Search target account groups"
              noun="Groups"
              data-testid="targets"
            />
          )}
        </section>
      )}

      {rules && (
        <section className="space-y-3" aria-label="Options">
          <h2 className="text-xl font-semibold">Options</h2>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Mode</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="mode"
                checked={options.mode === 'copy'}
                onChange={() => option('mode', 'copy')}
              />
              Copy (the source keeps its rules)
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="mode"
                checked={options.mode === 'move'}
                onChange={() => option('mode', 'move')}
              />
              Move (each source rule is deleted once every target has it)
            </label>
          </fieldset>
          <div className="grid gap-3 sm:grid-cols-2">
            <Select
              label="A different rule of the same name in a target"
              value={options.onConflict}
              onChange={(event) => option('onConflict', event.target.value as MigrationOptions['onConflict'])}
              options={[
                { value: 'ask', label: 'Ask me for each one' },
                { value: 'skip', label: 'Skip them all' },
                { value: 'update', label: 'Update them all' },
                { value: 'rename', label: 'Create them all under a new name' },
              ]}
            />
            <Select
              label="A rule none of whose tests exist in a target"
              value={options.whenNoTestsLeft}
              onChange={(event) => option('whenNoTestsLeft', event.target.value as MigrationOptions['whenNoTestsLeft'])}
              options={[
                { value: 'keep', label: 'Create it without tests' },
                { value: 'skip', label: 'Leave it out' },
              ]}
            />
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={options.keepDefault}
              onChange={(event) => option('keepDefault', event.target.checked)}
            />
            Keep default rules default in the targets (a default rule applies to every new test)
          </label>
          {elsewhere && (
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={options.keepRecipients}
                onChange={(event) => option('keepRecipients', event.target.checked)}
              />
              Keep the email recipients in the other organization (they are addresses of the source&apos;s organization:
              without this, the plan lists each one dropped)
            </label>
          )}
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={options.includeWindows}
              onChange={(event) => option('includeWindows', event.target.checked)}
            />
            Bring the suppression windows that cover the migrated rules&apos; tests
            {rules.windows.length > 0 &&
              ` (${rules.windows.filter((window) => window.ruleIds.some((id) => chosenRules.has(id))).length} of ${rules.windows.length})`}
          </label>
          <Button variant="primary" busy={planMigration.isPending} busyLabel="Planning" onClick={() => void preview()}>
            Preview Plan
          </Button>
        </section>
      )}

      {plan && (
        <>
          <PlanView plan={plan} decisions={decisions} onDecide={decide} />
          <div className="flex justify-end">
            <Button
              variant="primary"
              busy={start.isPending}
              busyLabel="Starting"
              disabled={plan.problems.length > 0}
              onClick={apply}
            >
              Apply Migration
            </Button>
          </div>
        </>
      )}

      <RecentMigrations onOpen={openRun} />
    </div>
  );
}
