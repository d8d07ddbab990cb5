import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiToken, ApiTokenSettings, CreateApiToken, CreatedApiToken } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

const mine = ['account', 'api-tokens'] as const;
const everyone = ['api-tokens'] as const;

/** GET /api/account/api-tokens/settings: the longest life and the capabilities the user may give. */
export function useApiTokenSettings() {
  return useQuery({
    queryKey: [...mine, 'settings'],
    queryFn: () => apiRequest<ApiTokenSettings>('/api/account/api-tokens/settings'),
  });
}

/** GET /api/account/api-tokens: the user's tokens, with their last use. */
export function useMyApiTokens() {
  return useQuery({
    queryKey: mine,
    queryFn: async () => (await apiRequest<{ tokens: ApiToken[] }>('/api/account/api-tokens')).tokens,
  });
}

/** GET /api/api-tokens: everyone's (Super Users). */
export function useAllApiTokens() {
  return useQuery({
    queryKey: everyone,
    queryFn: async () => (await apiRequest<{ tokens: ApiToken[] }>('/api/api-tokens')).tokens,
  });
}

function useRefreshTokens() {
  const queryClient = useQueryClient();
  return () => Promise.all([mine, everyone].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** POST /api/account/api-tokens: the answer holds the secret, shown once. */
export function useCreateApiToken(meta?: ErrorToastMeta) {
  const refresh = useRefreshTokens();
  return useMutation({
    meta,
    mutationFn: (input: CreateApiToken) =>
      apiRequest<CreatedApiToken>('/api/account/api-tokens', { method: 'POST', body: input }),
    onSettled: refresh,
  });
}

/** DELETE /api/account/api-tokens/:id: one's own, or anyone's for a Super User. */
export function useRevokeApiToken(meta?: ErrorToastMeta) {
  const refresh = useRefreshTokens();
  return useMutation({
    meta,
    mutationFn: (id: string) => apiRequest<ApiToken>(`/api/account/api-tokens/${id}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
}
