/**
 * The review module: a customer's review pack (its content, `review-pack.ts`) drawn as a PowerPoint deck and as a PDF.
 * Its routes and jobs come with the pack's builder; until then it registers nothing.
 */
export { isUnknown, unknownText, SECTION_TITLES, type ReviewPack, type Section, type Figure } from './review-pack.js';
export { planSlides, TABLE_ROWS_PER_SLIDE, type SlidePlan } from './review-slides.js';
export { renderReviewDeck } from './review-deck.js';
export { renderReviewPdf } from './review-pdf.js';
