import {
  REVIEW_MESSAGES,
  userMay,
  type ReviewCustomer,
  type ReviewNarrativeResponse,
  type ReviewNarrativeSave,
  type ReviewPreview,
  type SessionUser,
  type reviewPreviewRequestSchema,
} from '@ce/contract';
import type { z } from 'zod';
import { AppError } from '../../core/errors.js';
import type { CustomerService } from '../customer/customer.service.js';
import { buildReviewPack, keptNarrative, type ReviewSources } from './review-build.js';
import { SECTION_TITLES } from './review-pack.js';
import { planSlides } from './review-slides.js';
import { PLATFORM_READS } from './review-platform.js';

export interface ReviewDependencies {
  sources: ReviewSources;
  /** Asks the platform which organization a customer's token reaches (used once, never stored). */
  customer: Pick<CustomerService, 'scope'>;
  clock?: () => Date;
}

/**
 * A customer's kept narrative and the pack's preview (from the database only), for those tied to the organization
 * (decision 0038, as its waivers are: decision 0031).
 */
export class ReviewService {
  private readonly clock: () => Date;

  constructor(private readonly deps: ReviewDependencies) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /**
   * Whether the caller is tied to the organization: a Super User, the owner of a watch over it, or a caller whose
   * request carries a token the platform names that organization for (then its name, as the platform gives it).
   * Anyone else is refused in words (403), before anything is read or saved.
   */
  private async mustBeTied(user: SessionUser, { organizationId, token }: ReviewCustomer): Promise<string | null> {
    if (userMay(user, 'seeAllRuns')) return null;
    if (await this.deps.sources.repository.watchesOrganization(user.id, organizationId)) return null;
    if (token === undefined) throw new AppError(403, 'not_tied_to_organization', REVIEW_MESSAGES.notTied);
    try {
      return (await this.deps.customer.scope(token, organizationId, [])).organization.name;
    } catch (error) {
      if (error instanceof AppError && error.code === 'unknown_organization')
        throw new AppError(403, 'token_of_another_organization', REVIEW_MESSAGES.tokenElsewhere);
      throw error;
    }
  }

  private async kept(organizationId: string): Promise<ReviewNarrativeResponse> {
    const { repository } = this.deps.sources;
    const { row, narrative } = await keptNarrative(repository, organizationId);
    return {
      narrative,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      updatedBy: row ? await repository.personName(row.updatedBy) : null,
    };
  }

  async narrative(user: SessionUser, customer: ReviewCustomer): Promise<ReviewNarrativeResponse> {
    await this.mustBeTied(user, customer);
    return this.kept(customer.organizationId);
  }

  /** Keeps the narrative for the customer's next pack: the only place one is saved (a pack saves none). */
  async saveNarrative(user: SessionUser, { narrative, ...customer }: ReviewNarrativeSave) {
    await this.mustBeTied(user, customer);
    await this.deps.sources.repository.saveNarrative(customer.organizationId, narrative, user.id, this.clock());
    return this.kept(customer.organizationId);
  }

  async preview(user: SessionUser, request: z.output<typeof reviewPreviewRequestSchema>): Promise<ReviewPreview> {
    const { organizationId } = request;
    const named = await this.mustBeTied(user, request);
    // Named by the token's platform, else by the toolkit's records (a watch run, a watch, a report): an id that nothing
    // names is no customer (404, in words), never a pack titled with its id.
    const name = named ?? (await this.deps.sources.repository.organizationName(organizationId));
    if (name === null) throw new AppError(404, 'unknown_customer', REVIEW_MESSAGES.unknownCustomer(organizationId));
    const { pack, proposedKeyTests } = await buildReviewPack(
      this.deps.sources,
      {
        organization: { id: organizationId, name },
        requester: user,
        // No narrative: the pack's builder reads the kept one, as a pack requested without one does.
        options: {
          period: request.period,
          ...(request.cutOff ? { cutOff: request.cutOff } : {}),
          keyTests: request.keyTests,
        },
        now: this.clock(),
      },
      null,
    );
    return {
      organizationId,
      customer: pack.customer,
      periodLabel: pack.periodLabel,
      from: pack.from,
      to: pack.to,
      cutOff: pack.cutOff,
      // The outages are the platform's: the preview says they come with the pack, not that they are unknown.
      slides: planSlides(pack).map((slide) =>
        slide.title === SECTION_TITLES.outages && slide.kind === 'text'
          ? { ...slide, lines: [`Read from the platform when the pack is built: ${PLATFORM_READS.join('; ')}.`] }
          : slide,
      ),
      proposedKeyTests,
      platformLater: [...PLATFORM_READS],
    };
  }
}
