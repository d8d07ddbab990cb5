import { z } from 'zod';
import type { PasswordPolicy } from './password-rules.js';

/** The password rules, from configuration only (spec section 5). */
export const passwordPolicySchema = z.object({
  minLength: z.number().int().min(1),
  lowercase: z.boolean(),
  uppercase: z.boolean(),
  number: z.boolean(),
  symbol: z.boolean(),
}) satisfies z.ZodType<PasswordPolicy>;
