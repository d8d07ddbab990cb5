import { z } from 'zod';
import { platformTokenSchema, watchConsentSchema } from '@ce/contract';

/** What the token field says when it is left empty, in every Account Watch form. */
export const PASTE_TOKEN = 'Paste the customer’s Org Admin token';

/** The customer's token as a form holds it: asked for in words when empty, then the contract's token. */
export const tokenField = z.string().trim().min(1, PASTE_TOKEN).pipe(platformTokenSchema);

/**
 * The customer's consent to keep the token, as a form holds it: the contract's fields, the days typed as text
 * (in words when fewer than one).
 */
export const consentFields = {
  contactName: watchConsentSchema.shape.contactName,
  contactEmail: watchConsentSchema.shape.contactEmail,
  days: z.coerce.number<string>().int().min(1, 'At least one day').pipe(watchConsentSchema.shape.days),
};
