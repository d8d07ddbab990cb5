import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession, AuditEntry, InviteUserInput, Role, UserAccount } from '@ce/contract';
import { apiRequest } from '../../../lib/api-client';

export function useMySessions() {
  return useQuery({
    queryKey: ['account', 'sessions'],
    queryFn: async () => (await apiRequest<{ sessions: AccountSession[] }>('/api/account/sessions')).sessions,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<{ message: string }>(`/api/account/sessions/${id}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { oldPassword: string; newPassword: string }) =>
      apiRequest<{ message: string }>('/api/account/password', { method: 'PUT', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] }),
  });
}

export function useUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users'],
    queryFn: async () => (await apiRequest<{ users: UserAccount[] }>('/api/users')).users,
    enabled,
  });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteUserInput) =>
      apiRequest<{ user: UserAccount; temporaryPassword: string }>('/api/users', { method: 'POST', body: input }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      void queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: string; role?: Role; disabled?: boolean }) =>
      apiRequest<{ user: UserAccount }>(`/api/users/${id}`, { method: 'PATCH', body: changes }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      void queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
}

export function useAuditLog(enabled: boolean) {
  return useQuery({
    queryKey: ['audit-log'],
    queryFn: async () => (await apiRequest<{ entries: AuditEntry[] }>('/api/audit-log')).entries,
    enabled,
  });
}
