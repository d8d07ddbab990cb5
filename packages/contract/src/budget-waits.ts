import { z } from 'zod';

/**
 * A person's request waiting for a customer's API budget (the platform's 240 calls a minute per organization,
 * shared with background work): the browser names each request (`x-request-id`) and, once it has waited a
 * second, asks how long it will be, to say so where the person waits, with a way to cancel.
 */
export const BUDGET_WAIT_POLL_MS = 1_000;

export const budgetWaitParamsSchema = z.object({ requestId: z.string().regex(/^[A-Za-z0-9._-]{8,64}$/) });

export const budgetWaitSchema = z.object({
  /** False once the request has its slot (or ended, or never waited). */
  waiting: z.boolean(),
  /** The customer whose budget it waits for, when the server knows its name. */
  organizationName: z.string().nullable(),
  /** About how long still, in whole seconds (at least 1 while waiting), when the budget knows. */
  seconds: z.number().int().nonnegative().nullable(),
});
export type BudgetWait = z.infer<typeof budgetWaitSchema>;

/** The line the page shows: "Waiting for Acme Corporation's API budget: about 12 s". */
export function budgetWaitLine(wait: Pick<BudgetWait, 'organizationName' | 'seconds'>): string {
  const whose = wait.organizationName ? `${wait.organizationName}'s` : "the customer's";
  return wait.seconds === null
    ? `Waiting for ${whose} API budget`
    : `Waiting for ${whose} API budget: about ${Math.max(1, wait.seconds)} s`;
}
