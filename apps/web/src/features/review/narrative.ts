import type { ReviewNarrative } from '@ce/contract';

/** What only a person writes: goals, highlights, next steps with their owner and due date. */
export type NextStep = ReviewNarrative['nextSteps'][number];

export const EMPTY_NARRATIVE: ReviewNarrative = { goals: [], highlights: [], nextSteps: [] };

export const NEXT_STEP_INCOMPLETE = 'Each next step needs what is to be done, who owns it and when it is due.';

/**
 * The narrative as it is kept: lines trimmed, empty lines and empty next steps left out. A next step with only some
 * of its parts is a problem, said before anything is sent.
 */
export function cleanNarrative(draft: ReviewNarrative): { narrative: ReviewNarrative; problem: string | null } {
  const lines = (list: string[]) => list.map((line) => line.trim()).filter(Boolean);
  const steps = draft.nextSteps
    .map((next) => ({ step: next.step.trim(), owner: next.owner.trim(), due: next.due }))
    .filter((next) => next.step || next.owner || next.due);
  const incomplete = steps.some((next) => !next.step || !next.owner || !next.due);
  return {
    narrative: { goals: lines(draft.goals), highlights: lines(draft.highlights), nextSteps: steps },
    problem: incomplete ? NEXT_STEP_INCOMPLETE : null,
  };
}

/** Whether two narratives say the same once cleaned (nothing left to save). */
export const sameNarrative = (a: ReviewNarrative, b: ReviewNarrative) =>
  JSON.stringify(cleanNarrative(a).narrative) === JSON.stringify(cleanNarrative(b).narrative);
