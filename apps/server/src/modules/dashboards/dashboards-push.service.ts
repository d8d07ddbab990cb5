import { DASHBOARD_MESSAGES, type PushPlan, type PushRequest, type SessionUser } from '@ce/contract';
import type { PlatformClient, PlatformSession } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import type { DashboardsRepository, PushRow } from './dashboards.repository.js';
import { asGroupObjects, groupObjects } from './group-objects.js';
import { planRemap, referencedIds, rewriteLayout } from './remap.js';

export interface DashboardPushDeps {
  repository: DashboardsRepository;
  platform: PlatformClient;
  customer: CustomerService;
  audit: AuditLog;
}

/** A push recorded this recently may still be running: the same key is refused meanwhile, not pushed again. */
const PUSH_UNDER_WAY_MS = 2 * 60_000;

/**
 * Pushes a gallery dashboard into a chosen account group with its tests, agents and tags remapped by name: the
 * plan first (what maps, what is dropped), then the push, made once per push key and audited.
 */
export class DashboardPushService {
  constructor(private readonly deps: DashboardPushDeps) {}

  /** What a push would do: the references mapped by name in the target group and those dropped, with why. */
  async plan(id: string, request: PushRequest): Promise<PushPlan> {
    return (await this.prepare(id, request)).summary;
  }

  /**
   * Creates the dashboard in the target group with its references remapped, then rewrites its layout to
   * the created widgets. Every push is recorded with the new dashboard's id, and in the audit log. With a
   * push key it is recorded before the creation: the same request again (a retry, a second click) answers
   * the push already made, or refuses while it is under way, and a push cut short by a crash finds the
   * dashboard it made instead of making another.
   */
  async push(user: SessionUser, id: string, request: PushRequest) {
    const prepared = await this.prepare(id, request);
    const { row, remap, summary, session } = prepared;
    const answer = (dashboardId: string) => ({
      message: DASHBOARD_MESSAGES.deployed,
      dashboardId,
      title: row.title,
      accountGroupName: summary.accountGroupName,
      plan: summary,
    });
    const record = {
      dashboardId: id,
      userId: user.id,
      userEmail: user.email,
      organizationId: summary.organizationId,
      organizationName: summary.organizationName,
      aid: request.aid,
      accountGroupName: summary.accountGroupName,
      mapped: remap.mapped.length,
      dropped: remap.dropped.length,
    };
    let attempt: PushRow | null = null;
    if (request.pushId) {
      const sameTitle = async () =>
        (await readForCustomer(() => session.dashboards.list(request.aid)))
          .filter((dashboard) => dashboard.title === row.title)
          .map((dashboard) => dashboard.dashboardId);
      // A repeated request finds its push; only a new one reads what the group has before it writes.
      const earlier = await this.deps.repository.findPush(request.pushId);
      const { row: push, begun } = earlier
        ? { row: earlier, begun: false }
        : await this.deps.repository.beginPush({ ...record, pushKey: request.pushId, knownIds: await sameTitle() });
      if (!begun) {
        if (push.dashboardId !== id || push.aid !== request.aid)
          throw new AppError(409, 'push_key_reused', DASHBOARD_MESSAGES.pushKeyReused);
        if (push.status === 'done' && push.createdDashboardId) return answer(push.createdDashboardId);
        // Under way for a while with nothing recorded: cut short, or still waiting for the customer's budget. This
        // request takes it over (once, whichever asks first); the earlier one, if it is still waiting, then finds
        // right before its write that the push is no longer its own, and writes nothing.
        const taken = await this.deps.repository.takeOverPush(push, PUSH_UNDER_WAY_MS);
        if (!taken) throw new AppError(409, 'push_in_progress', DASHBOARD_MESSAGES.pushInProgress);
        // The dashboard the earlier attempt made, if any, is the new one of that title.
        const made = (await sameTitle()).find((dashboardId) => !push.knownIds.includes(dashboardId));
        if (made) {
          await this.deps.repository.finishPush(push.id, made);
          await this.audited(user, row, request, summary, remap, made);
          return answer(made);
        }
        attempt = taken;
      } else attempt = push;
    }
    const mine = attempt;
    const writer = mine
      ? this.deps.platform.as({
          token: request.token,
          beforeWrite: async () => {
            if (!(await this.deps.repository.pushStillMine(mine)))
              throw new AppError(409, 'push_in_progress', DASHBOARD_MESSAGES.pushInProgress);
          },
        })
      : prepared.session;
    let created: Awaited<ReturnType<PlatformSession['dashboards']['create']>>;
    try {
      created = await this.create({ ...prepared, session: writer }, request);
    } catch (error) {
      // A refusal wrote nothing: the key may be tried again at once. Anything else may have written.
      if (
        mine &&
        error instanceof AppError &&
        error.statusCode >= 400 &&
        error.statusCode < 500 &&
        error.statusCode !== 429
      )
        await this.deps.repository.forgetPush(mine);
      throw error;
    }
    if (mine) await this.deps.repository.finishPush(mine.id, created.dashboardId);
    else await this.deps.repository.recordPush({ ...record, createdDashboardId: created.dashboardId });
    await this.audited(user, row, request, summary, remap, created.dashboardId);
    return answer(created.dashboardId);
  }

  /** The dashboard, created in the target group; then its layout pointed at the created widgets. */
  private async create(
    { row, remap, session }: Awaited<ReturnType<DashboardPushService['prepare']>>,
    request: PushRequest,
  ) {
    // The layout names the source's widgets: it is set once the created widgets have ids.
    const body = { ...remap.body };
    delete body.layout;
    const created = await readForCustomer(() => session.dashboards.create(body, request.aid));
    const createdIds = (created.widgets ?? []).map((widget) => String(widget.id ?? ''));
    const layout = rewriteLayout(row.template.layout, remap.sourceWidgetIds, createdIds);
    if (layout) {
      const widgets = remap.body.widgets.map((widget, index) => ({
        ...widget,
        id: createdIds[index],
      }));
      await readForCustomer(() =>
        session.dashboards.update(created.dashboardId, { ...body, widgets, layout }, request.aid),
      );
    }
    return created;
  }

  private async audited(
    user: SessionUser,
    row: { id: string; title: string },
    request: PushRequest,
    summary: { organizationName: string; accountGroupName: string },
    remap: { mapped: unknown[]; dropped: unknown[] },
    createdDashboardId: string,
  ): Promise<void> {
    await this.deps.audit.record(
      user,
      'dashboard.pushed',
      `${summary.organizationName} / ${summary.accountGroupName}`,
      {
        communityDashboardId: row.id,
        title: row.title,
        aid: request.aid,
        createdDashboardId,
        mapped: remap.mapped.length,
        dropped: remap.dropped.length,
      },
    );
  }

  private async prepare(id: string, request: PushRequest) {
    const row = await this.deps.repository.find(id);
    if (!row) throw new AppError(404, 'not_found', DASHBOARD_MESSAGES.pushMissing);
    // A reviewer's rejection holds at the plan and at the push, whoever asks.
    if (row.status === 'rejected') throw new AppError(409, 'dashboard_rejected', DASHBOARD_MESSAGES.pushRejected);
    const scope = await this.deps.customer.scope(request.token, request.organizationId, [request.aid]);
    const session = this.deps.platform.as({ token: request.token });
    const target = await readForCustomer(() => groupObjects(session, request.aid, referencedIds(row.template)));
    const remap = planRemap(row.template, asGroupObjects(row.references), target);
    const summary = {
      title: row.title,
      organizationId: scope.organization.id,
      organizationName: scope.organization.name,
      accountGroupName: scope.accountGroupName(request.aid),
      widgetCount: remap.body.widgets.length,
      mapped: remap.mapped.map((item) => ({
        kind: item.kind,
        widget: item.widget,
        from: item.from.name,
        to: item.to.name,
      })),
      dropped: remap.dropped,
    };
    return { row, remap, summary, session };
  }
}
