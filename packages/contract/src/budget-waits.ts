import { z } from 'zod';
import type { BudgetWait } from './budget-wait-line.js';

export const budgetWaitParamsSchema = z.object({ requestId: z.string().regex(/^[A-Za-z0-9._-]{8,64}$/) });

/** `GET /api/budget-waits/:requestId` (the fields: budget-wait-line.ts). */
export const budgetWaitSchema = z.object({
  waiting: z.boolean(),
  organizationName: z.string().nullable(),
  seconds: z.number().int().nonnegative().nullable(),
  reading: z
    .object({ noun: z.string(), done: z.number().int().nonnegative(), total: z.number().int().nonnegative() })
    .nullable(),
}) satisfies z.ZodType<BudgetWait>;
