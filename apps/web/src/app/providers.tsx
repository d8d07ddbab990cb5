import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { SessionUser } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { Toaster } from '../components/ui/toaster';
import { onPlatformTokenRefused, onUnauthorized } from '../lib/api-client';
import { customerRefusedMessage, customers } from '../lib/customer';
import { sessionQueryKey } from '../lib/session';
import { setStorageOwner } from '../lib/user-storage';

export interface ProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** Opens a path of the app (the router's navigate), for the links in toasts. */
  navigate?: (to: string) => void;
}

export function Providers({ queryClient, children, navigate }: ProvidersProps) {
  // A 401 on any call means the session ended elsewhere: forget the user, and the guard returns to /login.
  useEffect(() => onUnauthorized(() => queryClient.setQueryData(sessionQueryKey, null)), [queryClient]);
  // The platform refused a token, in whichever tool: no tool offers it again, and when it was the chosen
  // customer's, the customer is cleared and said so. The request's own token is the one refused (the server
  // answers a second organization's refused token apart: invalid_target_token).
  useEffect(
    () =>
      onPlatformTokenRefused((sent) => {
        const token = typeof sent === 'object' && sent !== null && 'token' in sent ? sent.token : undefined;
        if (typeof token !== 'string' || token === '') return;
        const cleared = customers.refused(token);
        if (cleared) toast.error(customerRefusedMessage(cleared.organizationName), { title: 'Customer cleared' });
      }),
    [],
  );
  // Whoever the session says is signed in owns the browser's kept items; when nobody is, they go. When the
  // session ends or another user signs in, what was told of the previous session's work goes with it.
  // The page may have brought the session already (seedFromPage): that one counts too.
  useEffect(() => {
    let signedIn: string | null = null;
    const seen = (user: SessionUser | null | undefined) => {
      if (user === undefined) return;
      setStorageOwner(user?.id ?? null);
      customers.changed();
      if ((user?.id ?? null) !== signedIn) toast.endSession();
      signedIn = user?.id ?? null;
    };
    seen(queryClient.getQueryData<SessionUser | null>(sessionQueryKey));
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.query.queryKey[0] !== sessionQueryKey[0] || event.query.state.status !== 'success') return;
      seen(event.query.state.data as SessionUser | null | undefined);
    });
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster navigate={navigate} />
    </QueryClientProvider>
  );
}
