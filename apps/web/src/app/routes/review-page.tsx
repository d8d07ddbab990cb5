import { ReviewPackPage } from '../../features/review/components/review-pack-page';

/** A customer's review pack: /home/customers/{organization}/review. */
export function ReviewPage() {
  return <ReviewPackPage />;
}
