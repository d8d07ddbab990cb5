import { WORK_OUTCOME_LABELS, WORK_OUTCOME_TONES, type WorkOutcome } from '@ce/contract';
import { Badge } from '../../../components/ui/badge';

/**
 * How a piece of work on a customer's page went, in words and colour: done (green), done with failures (amber),
 * failed (red), undone, or still under way; the same outcome its run panel and end toast say.
 */
export function TimelineOutcome({ outcome }: { outcome: WorkOutcome }) {
  return (
    <span data-testid="timeline-outcome" data-outcome={outcome}>
      <Badge tone={WORK_OUTCOME_TONES[outcome]}>{WORK_OUTCOME_LABELS[outcome]}</Badge>
    </span>
  );
}
