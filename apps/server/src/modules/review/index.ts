/**
 * The review module: a customer's review pack (decision 0038), its content (`review-pack.ts`) built from what the
 * toolkit stored and the platform's outages (`review-build.ts`), drawn as a PowerPoint deck and as a PDF; the
 * narrative kept per customer and the pack's preview (its routes). The pack itself is the `review-pack` report kind.
 */
import type { AppModule } from '../../core/modules.js';
import { readTimeline } from '../../core/timeline.js';
import { ReviewRepository } from './review.repository.js';
import { reviewRoutes } from './review.routes.js';
import { ReviewService } from './review.service.js';

export { isUnknown, unknownText, SECTION_TITLES, type ReviewPack, type Section, type Figure } from './review-pack.js';
export { planSlides, TABLE_ROWS_PER_SLIDE, type SlidePlan } from './review-slides.js';
export { renderReviewDeck } from './review-deck.js';
export { renderReviewPdf } from './review-pdf.js';
export {
  buildReviewPack,
  requesterAsAsked,
  reviewWindow,
  withRequestedWith,
  type ReviewSources,
  type ReviewRequest,
} from './review-build.js';
export { printableText, printableValue } from './review-text.js';
export { makeReviewPack, reviewSummary, type MakeReviewPack, type MadeReviewPack } from './review-make.js';
export { ReviewRepository } from './review.repository.js';

export const reviewModule: AppModule = {
  name: 'review',
  async register({ db, routes, services, timelineSources, clock }) {
    const repository = new ReviewRepository(db);
    const review = new ReviewService({
      sources: { repository, timeline: (query) => readTimeline(timelineSources.items, query) },
      customer: services.get('customer'),
      ...(clock ? { clock } : {}),
    });
    routes.add((app) => app.register(reviewRoutes, { review }));
    return {};
  },
};
