import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { SessionUser } from '@ce/contract';
import { toast } from '../components/ui/toast-store';
import { Toaster } from '../components/ui/toaster';
import { onUnauthorized } from '../lib/api-client';
import { sessionQueryKey } from '../lib/session';
import { setStorageOwner } from '../lib/user-storage';

export interface ProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function Providers({ queryClient, children }: ProvidersProps) {
  // A 401 on any call means the session ended elsewhere: forget the user, and the guard returns to /login.
  useEffect(() => onUnauthorized(() => queryClient.setQueryData(sessionQueryKey, null)), [queryClient]);
  // Whoever the session says is signed in owns the browser's kept items; when nobody is, they go. When the
  // session ends or another user signs in, what was told of the previous session's work goes with it.
  useEffect(() => {
    let signedIn: string | null = null;
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.query.queryKey[0] !== sessionQueryKey[0] || event.query.state.status !== 'success') return;
      const user = event.query.state.data as SessionUser | null | undefined;
      if (user === undefined) return;
      setStorageOwner(user?.id ?? null);
      if ((user?.id ?? null) !== signedIn) toast.endSession();
      signedIn = user?.id ?? null;
    });
  }, [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
