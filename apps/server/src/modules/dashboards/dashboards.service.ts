import {
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  type CloneDashboardFields,
  type CommunityDashboard,
  type DashboardSort,
  type GroupDashboard,
  type PushPlan,
  type PushRequest,
  type SessionUser,
} from '@ce/contract';
import type { PlatformClient, PlatformSession } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import type { UsageService } from '../usage/usage.service.js';
import type {
  CommunityDashboardRow,
  DashboardsRepository,
  GalleryRow,
  PushRow,
  ReviewRow,
} from './dashboards.repository.js';
import { planRemap, referencedIds, rewriteLayout, storedDefinition, type GroupObjects, type Named } from './remap.js';
import { reencodeScreenshot } from './screenshots.js';

export interface DashboardsDeps {
  repository: DashboardsRepository;
  platform: PlatformClient;
  customer: CustomerService;
  usage: UsageService;
  audit: AuditLog;
}

const notFound = () => new AppError(404, 'not_found', 'This community dashboard does not exist (any more).');

/** A tag is known by its key and value: the same pair is the same tag in every account group. */
const tagName = (tag: { key?: string; value?: string; id: string }) =>
  tag.key !== undefined ? `${tag.key}: ${tag.value ?? ''}` : tag.id;

/**
 * The dashboard manager: clones a customer's dashboard into the community gallery (with three re-encoded
 * screenshots), votes, reviews and the reviewer's decision, and pushes a gallery dashboard into a chosen
 * account group with its tests, agents and tags remapped by name.
 */
/** A push recorded this recently may still be running: the same key is refused meanwhile, not pushed again. */
const PUSH_UNDER_WAY_MS = 2 * 60_000;

export class DashboardsService {
  constructor(private readonly deps: DashboardsDeps) {}

  /** The dashboards of one account group, for the clone form's select. */
  async groupDashboards(token: string, aid: string): Promise<GroupDashboard[]> {
    const dashboards = await readForCustomer(() => this.deps.platform.as({ token }).dashboards.list(aid));
    return dashboards
      .map((dashboard) => ({ dashboardId: dashboard.dashboardId, title: dashboard.title }))
      .sort((a, b) => a.title.localeCompare(b.title));
  }

  /**
   * Stores a dashboard in the gallery: the screenshots are checked first (no platform call for a bad
   * upload), then the definition is read with its widgets, and the names of what they point at.
   */
  async clone(
    user: SessionUser,
    fields: CloneDashboardFields,
    files: Map<number, Buffer>,
  ): Promise<CommunityDashboard> {
    const screenshots = [];
    for (let position = 1; position <= DASHBOARD_LIMITS.screenshots; position++) {
      const bytes = files.get(position);
      if (!bytes || bytes.length === 0)
        throw new AppError(400, 'screenshot_required', DASHBOARD_MESSAGES.screenshotRequired(position), [
          { path: `screenshot${position}`, message: DASHBOARD_MESSAGES.screenshotRequired(position) },
        ]);
      screenshots.push(await reencodeScreenshot(bytes, position));
    }
    const scope = await this.deps.customer.scope(fields.token, fields.organizationId, [fields.aid]);
    const session = this.deps.platform.as({ token: fields.token });
    const { definition, references } = await readForCustomer(async () => {
      const dashboard = await session.dashboards.get(fields.dashboardId, fields.aid);
      return {
        definition: storedDefinition(dashboard),
        references: await this.namesOf(session, fields.aid, dashboard),
      };
    });
    const id = await this.deps.repository.insert(
      {
        sourceDashboardId: fields.dashboardId,
        title: String(definition.title ?? 'Untitled dashboard'),
        description: fields.description,
        creatorId: user.id,
        creatorEmail: user.email,
        organizationName: scope.organization.name,
        accountGroupName: scope.accountGroupName(fields.aid),
        template: definition,
        references,
        widgetCount: definition.widgets.length,
      },
      screenshots,
    );
    await this.deps.usage.record({ tool: 'dashboard-cloned', userId: user.id });
    const [entry] = await this.deps.repository.list(user.id, { id });
    if (!entry) throw notFound();
    return toCommunityDashboard(entry, []);
  }

  async list(user: SessionUser, search: string, sort: DashboardSort): Promise<CommunityDashboard[]> {
    const rows = await this.deps.repository.list(user.id, { search, sort });
    const reviews = await this.deps.repository.reviewsOf(rows.map((row) => row.dashboard.id));
    return rows.map((row) =>
      toCommunityDashboard(
        row,
        reviews.filter((review) => review.dashboardId === row.dashboard.id),
      ),
    );
  }

  /** The spec's dashboard_template: a list whose first item is the stored definition. */
  async template(id: string): Promise<Record<string, unknown>[]> {
    const row = await this.deps.repository.find(id);
    if (!row) throw notFound();
    return [row.template];
  }

  async image(id: string, position: number): Promise<Buffer> {
    const image = await this.deps.repository.image(id, position);
    if (!image) throw new AppError(404, 'not_found', 'No such screenshot');
    return image;
  }

  /** The action is the button's current state: 'Vote' adds the user's vote, 'Voted' takes it back. */
  async vote(user: SessionUser, id: string, action: 'Vote' | 'Voted') {
    if (!(await this.deps.repository.find(id))) throw notFound();
    const add = action === 'Vote';
    const result = await this.deps.repository.vote(id, user.id, add);
    return { ...result, message: add ? DASHBOARD_MESSAGES.voteAdded : DASHBOARD_MESSAGES.voteRemoved };
  }

  async review(user: SessionUser, id: string, text: string): Promise<void> {
    if (!(await this.deps.repository.find(id))) throw notFound();
    await this.deps.repository.addReview({ dashboardId: id, userId: user.id, authorEmail: user.email, text });
  }

  async setStatus(user: SessionUser, id: string, status: 'approved' | 'rejected', comment: string): Promise<void> {
    const row = await this.deps.repository.find(id);
    if (!row) throw notFound();
    await this.deps.repository.setStatus(id, status, comment, user.email);
    await this.deps.audit.record(user, `dashboard.${status}`, row.title, { communityDashboardId: id, comment });
  }

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
    { row, remap, session }: Awaited<ReturnType<DashboardsService['prepare']>>,
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
    const target = await readForCustomer(() => this.groupObjects(session, request.aid, referencedIds(row.template)));
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

  /** The names of the tests, agents and tags a dashboard's widgets point at, read from their group. */
  private async namesOf(session: PlatformSession, aid: string, dashboard: Record<string, unknown>) {
    const wanted = referencedIds(dashboard);
    const objects = await this.groupObjects(session, aid, wanted);
    return {
      tests: objects.tests.filter((item) => wanted.tests.has(item.id)),
      agents: objects.agents.filter((item) => wanted.agents.has(item.id)),
      tags: objects.tags.filter((item) => wanted.tags.has(item.id)),
    };
  }

  /** A group's tests, agents and tags by name; only the lists the dashboard needs are read. */
  private async groupObjects(
    session: PlatformSession,
    aid: string,
    wanted: Record<keyof GroupObjects, Set<string>>,
  ): Promise<GroupObjects> {
    const [tests, agents, tags] = await Promise.all([
      wanted.tests.size ? session.tests.list(aid) : [],
      wanted.agents.size ? session.agents.list({ aid }) : [],
      wanted.tags.size ? session.tags.list(aid) : [],
    ]);
    return {
      tests: tests.map((test) => ({ id: test.testId, name: test.testName })),
      agents: agents.map((agent) => ({ id: agent.agentId, name: agent.agentName })),
      tags: tags.map((tag) => ({ id: tag.id, name: tagName(tag) })),
    };
  }
}

function asGroupObjects(references: Record<string, Named[]>): GroupObjects {
  return { tests: references.tests ?? [], agents: references.agents ?? [], tags: references.tags ?? [] };
}

function toCommunityDashboard(row: GalleryRow, reviews: ReviewRow[]): CommunityDashboard {
  const dashboard: CommunityDashboardRow = row.dashboard;
  return {
    id: dashboard.id,
    dashboardId: dashboard.sourceDashboardId,
    title: dashboard.title,
    description: dashboard.description,
    creator: dashboard.creatorEmail,
    submittedDate: dashboard.createdAt.toISOString(),
    status: dashboard.status,
    votes: row.votes,
    userVoted: row.userVoted,
    pushCount: row.pushCount,
    widgetCount: dashboard.widgetCount,
    imageCount: row.imageCount,
    source: { organizationName: dashboard.organizationName, accountGroupName: dashboard.accountGroupName },
    review:
      dashboard.status !== 'pending' && dashboard.reviewedAt
        ? {
            status: dashboard.status,
            comment: dashboard.reviewComment ?? '',
            reviewer: dashboard.reviewerEmail ?? '',
            reviewedAt: dashboard.reviewedAt.toISOString(),
          }
        : null,
    reviews: reviews.map((review) => ({
      id: review.id,
      author: review.authorEmail,
      text: review.text,
      createdAt: review.createdAt.toISOString(),
    })),
  };
}
