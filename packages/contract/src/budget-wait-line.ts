/**
 * A person's request waiting for a customer's API budget (the platform's 240 calls a minute per organization,
 * shared with background work): the browser names each request (`x-request-id`) and, once it has waited a
 * second, asks every second how long it will be, to say so where the person waits, with a way to cancel.
 * Without zod: the sign-in page's first script carries the API client, which shows these waits.
 */
export const BUDGET_WAIT_POLL_MS = 1_000;

/** What the server answers about one request (`GET /api/budget-waits/:requestId`). */
export interface BudgetWait {
  /** False once the request has its slot (or ended, or never waited). */
  waiting: boolean;
  /** The customer whose budget it waits for, when the server knows its name. */
  organizationName: string | null;
  /** About how long still, in whole seconds (at least 1 while waiting), when the budget knows. */
  seconds: number | null;
  /** How far the request has read, when it reads many items ("rule" 140 of 380; the total grows as lists come). */
  reading: { noun: string; done: number; total: number } | null;
}

/** "Reading rule 140 of 380". */
export function readingLine(reading: NonNullable<BudgetWait['reading']>): string {
  return `Reading ${reading.noun} ${Math.min(reading.done, reading.total)} of ${reading.total}`;
}

/** The line the page shows: "Waiting for Acme Corporation's API budget: about 12 s". */
export function budgetWaitLine(wait: Pick<BudgetWait, 'organizationName' | 'seconds'>): string {
  const whose = wait.organizationName ? `${wait.organizationName}'s` : "the customer's";
  return wait.seconds === null
    ? `Waiting for ${whose} API budget`
    : `Waiting for ${whose} API budget: about ${Math.max(1, wait.seconds)} s`;
}
