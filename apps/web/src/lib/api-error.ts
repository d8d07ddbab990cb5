import { apiErrorSchema, type ApiError } from '@ce/contract';

/**
 * Reads an error answer by the contract's schema. Loaded only when an answer is an error (and fetched
 * ahead when the browser is idle), so the sign-in page's first script carries no schema library.
 */
export function readApiError(payload: unknown): ApiError['error'] | null {
  const parsed = apiErrorSchema.safeParse(payload);
  return parsed.success ? parsed.data.error : null;
}
