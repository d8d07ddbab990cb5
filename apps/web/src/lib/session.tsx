import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  AppInfo,
  BootData,
  LoginInput,
  SessionResponse,
  SessionUser,
  SignInResponse,
  SignOutResponse,
} from '@ce/contract';
import { BOOT_DATA_ELEMENT_ID, LOGOUT_TOAST_MESSAGE, LOGOUT_TOAST_MS } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { ApiRequestError, apiRequest, safeJson } from './api-client';
import { SHOWN_IN_PLACE } from './error-toasts';
import { setStorageOwner } from './user-storage';

export const sessionQueryKey = ['session'] as const;
const appInfoQueryKey = ['app-info'] as const;

/**
 * Starts the app's cache from what the server wrote into the page (BootData): the signed-in user and the app's
 * info, so the first screen does not wait on asking for them. A page without it (the dev server) asks for them.
 */
export function seedFromPage(queryClient: QueryClient): void {
  const text = document.getElementById(BOOT_DATA_ELEMENT_ID)?.textContent;
  if (!text) return;
  const boot = safeJson(text);
  if (typeof boot !== 'object' || boot === null || !('appInfo' in boot)) return;
  const { user, appInfo } = boot as BootData;
  if (user !== undefined) {
    // Before the first render: what the user kept in this browser is theirs to read from the start.
    setStorageOwner(user?.id ?? null);
    queryClient.setQueryData(sessionQueryKey, user);
  }
  queryClient.setQueryData(appInfoQueryKey, appInfo);
}

/** The signed-in user, or null. A 401 is an answer here, not an error. */
export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: async (): Promise<SessionUser | null> => {
      try {
        const { user } = await apiRequest<SessionResponse>('/api/session', { expectUnauthorized: true });
        return user;
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

export function useAppInfo() {
  return useQuery({
    queryKey: appInfoQueryKey,
    queryFn: () => apiRequest<AppInfo>('/api/app-info'),
    staleTime: Infinity,
  });
}

/** Signs in; the answer is a session or the new-password step. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (input: LoginInput) =>
      apiRequest<SignInResponse>('/api/session', { method: 'POST', body: input, expectUnauthorized: true }),
    onSuccess: (response) => {
      if ('user' in response) queryClient.setQueryData(sessionQueryKey, response.user);
    },
  });
}

export function useCompleteNewPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (input: { session: string; newPassword: string }) =>
      apiRequest<SessionResponse>('/api/session/new-password', {
        method: 'POST',
        body: input,
        expectUnauthorized: true,
      }),
    onSuccess: ({ user }) => queryClient.setQueryData(sessionQueryKey, user),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (email: string) =>
      apiRequest<{ message: string }>('/api/password-reset', { method: 'POST', body: { email } }),
  });
}

export function useConfirmPasswordReset() {
  return useMutation({
    meta: SHOWN_IN_PLACE,
    mutationFn: (input: { email: string; code: string; newPassword: string }) =>
      apiRequest<{ message: string }>('/api/password-reset/confirm', { method: 'POST', body: input }),
  });
}

/**
 * Ends every session of the user on the server, then forgets everything the browser kept and says so.
 * Clearing the session sends the guarded shell back to /login. A single sign-on session also ends at
 * the identity provider: once the toast has shown, the browser goes to its end-session page, which
 * comes back to /login.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: SHOWN_IN_PLACE,
    // `revokeApiTokens`: the user's personal API tokens end too (Settings' "Sign out everywhere" asks).
    mutationFn: (options: { revokeApiTokens?: boolean } | void) =>
      apiRequest<SignOutResponse>(options?.revokeApiTokens ? '/api/session?revokeApiTokens=true' : '/api/session', {
        method: 'DELETE',
        expectUnauthorized: true,
      }),
    onSettled: (response) => {
      localStorage.clear();
      sessionStorage.clear();
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, null);
      toast.success(LOGOUT_TOAST_MESSAGE, { timeout: LOGOUT_TOAST_MS });
      const providerLogoutUrl = response?.providerLogoutUrl;
      if (providerLogoutUrl && /^https?:\/\//.test(providerLogoutUrl))
        window.setTimeout(() => window.location.assign(providerLogoutUrl), LOGOUT_TOAST_MS);
    },
  });
}
