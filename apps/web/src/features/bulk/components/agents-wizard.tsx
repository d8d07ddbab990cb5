import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useForm, useWatch } from 'react-hook-form';
import {
  AGENT_WIZARD_TOKEN_MIN,
  BULK_MESSAGES,
  DELETE_CONFIRMATION_WORD,
  deleteAgentsFormSchema,
  type DeleteAgentsFormOutput,
  type DeleteAgentsFormValues,
  type DuplicateAgent,
  type DuplicateGroup,
  type DuplicateScan,
} from '@ce/contract';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast-store';
import { useScanDuplicates } from '../api/scan-duplicates';
import { useStartRun } from '../api/start-run';
import { platformErrors, usePlatformGroups } from '../hooks/use-platform-groups';
import { useRunParam } from '../../../lib/use-run-param';
import { GroupSelect } from './group-select';
import { RecentRuns } from './recent-runs';
import { BulkRunPanel } from './run-results';
import { TokenStep } from './token-step';
import { Stepper } from '../../../components/ui/stepper';
import { toggled } from '../toggled';
import { dateTime } from '../../../lib/dates';

const STEP_LABELS = ['Authentication', 'Select Account Groups', 'Review Duplicates', 'Results'];

/** Every agent of each duplicate group except the most recently active one (unknown activity counts as oldest). */
export function oldestAgents(groups: readonly DuplicateGroup[]): Set<string> {
  const activity = (agent: DuplicateAgent) => {
    const time = Date.parse(agent.lastActivity ?? '');
    return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
  };
  const marked = new Set<string>();
  for (const group of groups) {
    const [first, ...rest] = group.agents;
    if (!first) continue;
    const keep = rest.reduce((newest, agent) => (activity(agent) > activity(newest) ? agent : newest), first);
    for (const agent of group.agents) if (agent.agentId !== keep.agentId) marked.add(agent.agentId);
  }
  return marked;
}

/** The duplicate-agent clean-up: scan chosen account groups, review, delete after typing DELETE. */
export function AgentsWizard() {
  const platform = usePlatformGroups('agent-wizard', AGENT_WIZARD_TOKEN_MIN);
  const [runId, openRun] = useRunParam();
  const [step, setStep] = useState(1);
  const [scan, setScan] = useState<DuplicateScan | null>(null);
  const scanner = useScanDuplicates(platformErrors(BULK_MESSAGES.agentsFailed));
  const scanning = scanner.isPending;
  const form = useForm<DeleteAgentsFormValues, unknown, DeleteAgentsFormOutput>({
    resolver: zodResolver(deleteAgentsFormSchema),
    defaultValues: { agentIds: [], confirmation: '' },
  });
  const { field: agentIds } = useController({ control: form.control, name: 'agentIds' });
  const marked = useMemo(() => new Set(agentIds.value), [agentIds.value]);
  const setMarked = (next: ReadonlySet<string>) => agentIds.onChange([...next]);
  const confirmation = useWatch({ control: form.control, name: 'confirmation' });
  const startRun = useStartRun(platformErrors('Failed to delete agents'));
  const current = runId ? 4 : step;

  const backToStart = () => {
    platform.clearLists();
    setScan(null);
    form.reset();
    setStep(1);
  };
  const startOver = () => {
    backToStart();
    platform.reset();
    openRun(null);
  };

  const next = async () => {
    if (await platform.load()) setStep(2);
  };
  const runScan = async () => {
    if (platform.chosen.length === 0) {
      toast.error(BULK_MESSAGES.groupsRequired);
      return;
    }
    try {
      const result = await scanner.mutateAsync({ token: platform.token, accountGroups: platform.chosen });
      for (const failed of result.errors) toast.error(`${failed.accountGroupName}: ${failed.error}`);
      setScan(result);
      form.reset();
      setStep(3);
    } catch {
      // Said by the query client's error toast (platformErrors).
    }
  };
  const remove = form.handleSubmit(
    (values) => {
      const chosen = new Set(values.agentIds);
      const agents = (scan?.groups ?? []).flatMap((group) => group.agents).filter((agent) => chosen.has(agent.agentId));
      if (!platform.organization) return;
      startRun.mutate(
        {
          kind: 'agents',
          token: platform.token,
          organization: platform.organization,
          confirmation: values.confirmation,
          agents: agents.map((agent) => ({
            agentId: agent.agentId,
            agentName: agent.agentName,
            aid: agent.accountGroupId,
            accountGroupName: agent.accountGroupName,
          })),
        },
        {
          onSuccess: (run) => openRun(run.id),
        },
      );
    },
    (errors) => toast.error(errors.agentIds?.message ?? errors.confirmation?.message ?? 'Nothing to delete'),
  );
  const toggle = (agentId: string) => setMarked(toggled(marked, agentId));

  const steps = STEP_LABELS.map((label, index) => ({
    label,
    done: current > index + 1 || (index === 3 && runId !== null),
    reachable: false,
  }));

  return (
    <div className="space-y-4">
      <Stepper steps={steps} current={current} onGo={() => undefined} />
      {current === 1 && (
        <TokenStep platform={platform} list="agent-wizard" nextLabel="Next" onNext={() => void next()} />
      )}
      {current === 2 && platform.groups && (
        <section className="space-y-4" aria-label="Select Account Groups">
          <h2 className="text-xl font-semibold">Select Account Groups</h2>
          <p className="text-sm text-slate-600">
            The enterprise agents of these groups are compared by IP address and location.
          </p>
          <GroupSelect groups={platform.groups} selected={platform.selected} onChange={platform.setSelected} />
          <div className="flex justify-between">
            <Button onClick={backToStart}>Back</Button>
            <Button variant="primary" busy={scanning} busyLabel="Scanning" onClick={() => void runScan()}>
              Scan for Duplicates
            </Button>
          </div>
        </section>
      )}
      {current === 3 && scan && (
        <section className="space-y-4" aria-label="Review Duplicates">
          <h2 className="text-xl font-semibold">Review Duplicates</h2>
          <p className="text-sm text-slate-600" data-testid="scan-summary">
            {scan.scannedAgents} agents scanned, {scan.groups.length} duplicate{' '}
            {scan.groups.length === 1 ? 'group' : 'groups'} found.
          </p>
          {scan.groups.length > 0 && (
            <div className="flex gap-2">
              <Button onClick={() => setMarked(oldestAgents(scan.groups))}>Select Oldest</Button>
              <Button onClick={() => setMarked(new Set())}>Clear Selection</Button>
            </div>
          )}
          {scan.groups.map((group) => (
            <article
              key={group.key}
              className="rounded-lg border border-slate-200 bg-white p-3"
              data-testid="duplicate-group"
            >
              <h3 className="font-medium">{group.key}</h3>
              <p className="text-sm text-slate-600">{group.reason}</p>
              <table className="mt-2 w-full text-left text-sm">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th className="py-1">Delete</th>
                    <th>Agent</th>
                    <th>Account group</th>
                    <th>IP address</th>
                    <th>Location</th>
                    <th>Last activity</th>
                  </tr>
                </thead>
                <tbody>
                  {group.agents.map((agent) => (
                    <tr key={`${agent.accountGroupId}-${agent.agentId}`} className="border-t border-slate-100">
                      <td className="py-1">
                        <input
                          type="checkbox"
                          aria-label={`Delete ${agent.agentName}`}
                          checked={marked.has(agent.agentId)}
                          onChange={() => toggle(agent.agentId)}
                        />
                      </td>
                      <td>{agent.agentName}</td>
                      <td>{agent.accountGroupName}</td>
                      <td className="font-mono">{agent.ipAddress}</td>
                      <td>{agent.location}</td>
                      <td>{agent.lastActivity ? dateTime(agent.lastActivity) : 'Never'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </article>
          ))}
          {scan.groups.length > 0 && (
            <div className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3">
              <label className="block text-sm font-medium text-red-900" htmlFor="delete-confirmation">
                Deleting agents cannot be undone. Type {DELETE_CONFIRMATION_WORD} to confirm.
              </label>
              <input
                id="delete-confirmation"
                autoComplete="off"
                className="w-48 rounded-md border border-red-300 px-3 py-2 font-mono"
                {...form.register('confirmation')}
              />
            </div>
          )}
          <div className="flex justify-between">
            <Button onClick={() => setStep(2)}>Back</Button>
            {scan.groups.length > 0 && (
              <Button
                variant="danger"
                disabled={confirmation !== DELETE_CONFIRMATION_WORD}
                busy={startRun.isPending}
                busyLabel="Deleting"
                onClick={(event) => void remove(event)}
              >
                {`Delete ${marked.size} ${marked.size === 1 ? 'Agent' : 'Agents'}`}
              </Button>
            )}
          </div>
        </section>
      )}
      {current === 1 && <RecentRuns view="agents" onOpen={openRun} />}
      {current === 4 && runId && <BulkRunPanel runId={runId} title="Results" newLabel="Start Over" onNew={startOver} />}
    </div>
  );
}
