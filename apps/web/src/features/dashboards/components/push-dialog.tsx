import { useMemo, useState } from 'react';
import { DASHBOARD_MESSAGES, type CommunityDashboard, type PushPlan } from '@ce/contract';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { DataTable, type ColumnDef } from '../../../components/ui/data-table';
import { Dialog } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { soleOrganization, useTokenGroups } from '../../../lib/use-token-groups';
import { ApiRequestError } from '../../../lib/api-client';
import { usePushDashboard } from '../api/push-dashboard';
import { usePushPlan } from '../api/push-plan';
import { TokenField } from '../../../components/ui/token-field';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

type Mapped = PushPlan['mapped'][number];
type Dropped = PushPlan['dropped'][number];

const MAPPED_COLUMNS: ColumnDef<Mapped, unknown>[] = [
  { header: 'Kind', accessorKey: 'kind' },
  { header: 'Widget', accessorKey: 'widget' },
  { header: 'Source', accessorKey: 'from' },
  { header: 'Target', accessorKey: 'to' },
];
const DROPPED_COLUMNS: ColumnDef<Dropped, unknown>[] = [
  { header: 'Kind', accessorKey: 'kind' },
  { header: 'Widget', accessorKey: 'widget' },
  { header: 'Reference', accessorFn: (row) => row.name ?? row.id },
  { header: 'Why', accessorKey: 'reason' },
];

/** The spec's push failures (section 8): a refused token, the server's own words, or a general message. */
const PUSH_ERRORS: ErrorToastMeta = { errorMessage: pushFailureMessage };

export function pushFailureMessage(error: unknown): string {
  if (error instanceof ApiRequestError) {
    if (error.status === 401 || error.status === 403) return DASHBOARD_MESSAGES.pushUnauthorized;
    if (error.status !== 0 && error.code !== 'internal' && error.message)
      return DASHBOARD_MESSAGES.pushError(error.message);
  }
  return DASHBOARD_MESSAGES.pushFailed;
}

export interface PushDialogProps {
  dashboard: CommunityDashboard | null;
  onClose: () => void;
}

/**
 * Push: a customer's token, the account group to create the dashboard in, a preview of the references
 * that map by name and those dropped with the reason, then Deploy.
 */
export function PushDialog({ dashboard, onClose }: PushDialogProps) {
  const [token, setToken] = useState('');
  const [organizationId, setOrganizationId] = useState('');
  const [aid, setAid] = useState('');
  const tokenGroups = useTokenGroups(PUSH_ERRORS);
  const plan = usePushPlan(PUSH_ERRORS);
  const push = usePushDashboard(PUSH_ERRORS);

  const { organizations } = tokenGroups;
  const organizationGroups = tokenGroups.inOrganization(organizationId);

  const close = () => {
    setToken('');
    tokenGroups.clear();
    setOrganizationId('');
    setAid('');
    plan.reset();
    push.reset();
    onClose();
  };

  const load = () => {
    if (!token.trim()) {
      toast.error(DASHBOARD_MESSAGES.pushTokenRequired);
      return;
    }
    tokenGroups.load(token.trim()).then(
      (loaded) => {
        setOrganizationId(soleOrganization(loaded));
        setAid('');
        plan.reset();
      },
      () => undefined, // Said by the query client's error toast (PUSH_ERRORS).
    );
  };

  const choose = (next: string) => {
    setAid(next);
    plan.reset();
    if (next && dashboard) plan.mutate({ id: dashboard.id, token: token.trim(), organizationId, aid: next });
  };

  // One key per dashboard and target group: a retry after a timeout answers the push already made (the
  // server never creates a second dashboard for it). crypto.randomUUID needs a secure context (https, localhost).
  const pushId = useMemo(
    () => (dashboard && aid && typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined),
    [dashboard, aid],
  );

  const deploy = () => {
    // The spec's checks, in its order (section 5).
    const missing = !token.trim()
      ? DASHBOARD_MESSAGES.pushTokenRequired
      : !aid
        ? DASHBOARD_MESSAGES.pushAccountRequired
        : !dashboard
          ? DASHBOARD_MESSAGES.pushMissing
          : null;
    if (missing || !dashboard) {
      toast.error(missing ?? DASHBOARD_MESSAGES.pushMissing);
      return;
    }
    push.mutate(
      { id: dashboard.id, token: token.trim(), organizationId, aid, pushId },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          close();
        },
      },
    );
  };

  return (
    <Dialog
      title={dashboard ? `Push “${dashboard.title}”` : 'Push dashboard'}
      isOpen={dashboard !== null}
      onClose={close}
      width="max-w-4xl"
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" onClick={deploy} busy={push.isPending} busyLabel="Deploying Dashboard">
            {push.isPending ? 'Deploying Dashboard...' : 'Deploy'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        {dashboard?.status === 'pending' && <Banner tone="info">{DASHBOARD_MESSAGES.pushPending}</Banner>}
        {dashboard?.status === 'rejected' && <Banner tone="error">{DASHBOARD_MESSAGES.pushRejected}</Banner>}
        <div className="flex items-end gap-2">
          <TokenField
            fieldClassName="flex-1"
            placeholder="Token of the customer organization to push into"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                load();
              }
            }}
          />
          <Button onClick={load} busy={tokenGroups.loading} busyLabel="Loading account groups">
            Load account groups
          </Button>
        </div>
        {(tokenGroups.groups ?? []).length > 0 && (
          <div className="grid gap-3 sm:grid-cols-2">
            <Select
              label="Organization"
              placeholder="Select an organization"
              options={organizations}
              value={organizationId}
              onChange={(event) => {
                setOrganizationId(event.target.value);
                choose('');
              }}
            />
            <Select
              label="Account group"
              placeholder="Select an account group"
              options={organizationGroups.map((group) => ({ value: group.aid, label: group.accountGroupName }))}
              value={aid}
              disabled={!organizationId}
              onChange={(event) => choose(event.target.value)}
            />
          </div>
        )}
        {plan.isPending && <Spinner label="Reading the account group's tests, agents and tags" />}
        {plan.data && (
          <section className="space-y-3" aria-label="Push preview">
            <p className="text-sm">
              {plan.data.widgetCount} widget{plan.data.widgetCount === 1 ? '' : 's'} into{' '}
              <strong>{plan.data.accountGroupName}</strong>: {plan.data.mapped.length} reference
              {plan.data.mapped.length === 1 ? '' : 's'} mapped by name, {plan.data.dropped.length} dropped.
            </p>
            {plan.data.dropped.length > 0 && (
              <Banner tone="warning">
                Widgets keep working without the dropped references; add matching tests, agents or tags to the account
                group first to keep them.
              </Banner>
            )}
            <DataTable
              label="Mapped references"
              data={plan.data.mapped}
              columns={MAPPED_COLUMNS}
              empty="Nothing to map."
              maxHeight={220}
            />
            <DataTable
              label="Dropped references"
              data={plan.data.dropped}
              columns={DROPPED_COLUMNS}
              empty="Nothing dropped."
              maxHeight={220}
            />
          </section>
        )}
        {push.isPending && (
          <p className="flex items-center gap-2 text-sm">
            <Spinner label="Deploying Dashboard" /> Deploying Dashboard...
          </p>
        )}
      </div>
    </Dialog>
  );
}
