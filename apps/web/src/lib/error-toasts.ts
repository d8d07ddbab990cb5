import { BULK_MESSAGES } from '@ce/contract';
import { ApiRequestError } from './api-client';

/**
 * What a mutation says when it fails. By default the query client raises one error toast with the
 * server's message (every call goes through the API client, so its errors carry one); a feature adds
 * only what is specific to it: its own wording or title, or `errorToast: false` when it answers a failure
 * itself (a message that depends on more than the error, a banner instead of a toast).
 */
export interface ErrorToastMeta extends Record<string, unknown> {
  errorToast?: false;
  /** The toast's text (and title) for this mutation's failures (default: the server's message). */
  errorMessage?: (error: unknown) => string | { text: string; title?: string };
  errorTitle?: string;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: ErrorToastMeta;
  }
}

/** For a mutation whose form shows its failure in place (a banner, a line under a field): no toast. */
export const SHOWN_IN_PLACE: ErrorToastMeta = { errorToast: false };

/** The failure's message (the server's, for the API client's errors), or `fallback` when it has none. */
export const apiErrorText = (error: unknown, fallback = 'Something went wrong. Please try again.') =>
  error instanceof Error && error.message ? error.message : fallback;

/** The toast a failed mutation raises, or null when its feature says it itself. */
export function errorToastOf(
  error: unknown,
  meta: ErrorToastMeta | undefined,
): { text: string; title?: string } | null {
  if (meta?.errorToast === false) return null;
  if (error instanceof DOMException && error.name === 'AbortError') return null;
  // The person cancelled it (it waited for a customer's API budget): no tool's words for a failure apply.
  if (error instanceof ApiRequestError && error.code === 'cancelled') return { text: error.message };
  const said = meta?.errorMessage ? meta.errorMessage(error) : apiErrorText(error);
  const { text, title = meta?.errorTitle } = typeof said === 'string' ? { text: said } : said;
  return { text, ...(title ? { title } : {}) };
}

/**
 * For a call made with a customer's token: a token the platform refused gets the spec's words and title
 * (section 8), a second organization's token refused the server's words for it (`invalid_target_token`), any
 * other failure the server's message or `fallback`.
 */
export const customerTokenErrors = (fallback: string): ErrorToastMeta => ({
  errorMessage: (error) =>
    error instanceof ApiRequestError && error.code === 'invalid_target_token'
      ? { text: error.message, title: BULK_MESSAGES.invalidTokenTitle }
      : error instanceof ApiRequestError && error.status === 401
        ? { text: BULK_MESSAGES.invalidToken, title: BULK_MESSAGES.invalidTokenTitle }
        : apiErrorText(error, fallback),
});
