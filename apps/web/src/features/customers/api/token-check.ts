import { useMutation } from '@tanstack/react-query';
import type { TokenCheck } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import { SHOWN_IN_PLACE } from '../../../lib/error-toasts';

/**
 * POST /api/customers/token-check: the account groups a token sees and what it may do, proved by reads. A
 * mutation (the token is a secret, never a cache key); its failure is said under the switcher's field.
 */
export const checkCustomerToken = (token: string) =>
  apiRequest<TokenCheck>('/api/customers/token-check', { method: 'POST', body: { token } });

export function useCheckCustomerToken() {
  return useMutation({ mutationFn: checkCustomerToken, meta: SHOWN_IN_PLACE });
}
