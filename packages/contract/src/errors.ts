import { z } from 'zod';

/** The one JSON shape of every API error. `fields` carries per-field validation messages. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    requestId: z.string().optional(),
    fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** What a person is told when the toolkit's own database fails them (answered 503 with Retry-After). */
export const DATABASE_FAULT_MESSAGES = {
  unreachable: "The toolkit's database cannot be reached; try again in a minute",
  diskFull: "The toolkit's disk is full; nothing was lost: try again once space is freed",
} as const;
/** Seconds a person (or a script) is asked to wait before trying again when the database fails. */
export const DATABASE_RETRY_AFTER_SECONDS = 60;

/** What a caller is told when an instance has more to answer than it can in time (503 with Retry-After, at once). */
export const BUSY_MESSAGE = 'The toolkit is busy right now; try again in a few seconds';
/** Seconds a caller turned away by a busy instance is asked to wait before trying again. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/**
 * What a caller is told when a request's text holds a character the toolkit cannot store (answered 400 before any
 * handler runs: decision 0039). `field` names where it was: a body field's path
 * (`tasks.0.engagement`), a query parameter or a path parameter by its name, a form field by its name.
 */
export const UNSTORABLE_TEXT_MESSAGES = {
  nul: (field: string) => `Text may not contain a NUL character (field ${field}).`,
  loneSurrogate: (field: string) =>
    `Text may not contain half of a character pair (an unpaired surrogate) (field ${field}).`,
} as const;
