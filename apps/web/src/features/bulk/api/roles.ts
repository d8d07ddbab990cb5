import { useMutation } from '@tanstack/react-query';
import { post } from './platform-call';
import type { ErrorToastMeta } from '../../../lib/error-toasts';

/** POST /api/bulk/roles: the roles of the token's organization. */
export const fetchRoles = async (token: string) =>
  (await post<{ roles: { roleId: string; name: string }[] }>('/api/bulk/roles', { token })).roles;

export const useLoadRoles = (meta?: ErrorToastMeta) => useMutation({ mutationFn: fetchRoles, meta });
