import {
  DASHBOARD_LIMITS,
  DASHBOARD_MESSAGES,
  type CloneDashboardFields,
  type CommunityDashboard,
  type DashboardSort,
  type GroupDashboard,
  type SessionUser,
} from '@ce/contract';
import type { PlatformClient } from '@ce/platform-client';
import { AppError } from '../../core/errors.js';
import type { AuditLog } from '../audit/index.js';
import { readForCustomer, type CustomerService } from '../customer/customer.service.js';
import type { UsageService } from '../usage/usage.service.js';
import type { CommunityDashboardRow, DashboardsRepository, GalleryRow, ReviewRow } from './dashboards.repository.js';
import { namesOf } from './group-objects.js';
import { storedDefinition } from './remap.js';
import { reencodeScreenshot } from './screenshots.js';

export interface DashboardsDeps {
  repository: DashboardsRepository;
  platform: PlatformClient;
  customer: CustomerService;
  usage: UsageService;
  audit: AuditLog;
}

const notFound = () => new AppError(404, 'not_found', 'This community dashboard does not exist (any more).');

/**
 * The community gallery: clones a customer's dashboard into it (with three re-encoded screenshots), lists and
 * serves its entries, votes, reviews and the reviewer's decision. Pushing an entry into a group is
 * `DashboardPushService`'s.
 */
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
        references: await namesOf(session, fields.aid, dashboard),
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
