import {
  reviewNarrativeSchema,
  type ReviewNarrative,
  type ReviewNarrativeResponse,
  type ReviewPreview,
  type SessionUser,
  type reviewPreviewQuerySchema,
} from '@ce/contract';
import type { z } from 'zod';
import { buildReviewPack, type ReviewSources } from './review-build.js';
import { SECTION_TITLES } from './review-pack.js';
import { planSlides } from './review-slides.js';
import { PLATFORM_READS } from './review-platform.js';

const EMPTY: ReviewNarrative = { goals: [], highlights: [], nextSteps: [] };

/** A customer's kept narrative and the pack's preview (from the database only). */
export class ReviewService {
  constructor(
    private readonly sources: ReviewSources,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async narrative(organizationId: string): Promise<ReviewNarrativeResponse> {
    const row = await this.sources.repository.narrative(organizationId);
    const parsed = row ? reviewNarrativeSchema.safeParse(row.narrative) : null;
    return {
      narrative: parsed?.success ? parsed.data : EMPTY,
      updatedAt: row?.updatedAt.toISOString() ?? null,
      updatedBy: row ? await this.sources.repository.personName(row.updatedBy) : null,
    };
  }

  /** Keeps the narrative for the customer's next pack (a request of a pack with one saves it too). */
  async saveNarrative(
    user: SessionUser,
    organizationId: string,
    narrative: ReviewNarrative,
  ): Promise<ReviewNarrativeResponse> {
    await this.sources.repository.saveNarrative(organizationId, narrative, user.id, this.clock());
    return this.narrative(organizationId);
  }

  async preview(
    user: SessionUser,
    organizationId: string,
    query: z.output<typeof reviewPreviewQuerySchema>,
  ): Promise<ReviewPreview> {
    const kept = await this.narrative(organizationId);
    const name = (await this.sources.repository.organizationName(organizationId)) ?? organizationId;
    const { pack, proposedKeyTests } = await buildReviewPack(
      this.sources,
      {
        organization: { id: organizationId, name },
        requester: user,
        options: {
          period: { kind: query.kind, from: query.from, to: query.to },
          ...(query.cutOff ? { cutOff: query.cutOff } : {}),
          keyTests: query.keyTests,
          narrative: kept.narrative,
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
