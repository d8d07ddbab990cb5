import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Toaster } from '../components/ui/toaster';
import { onUnauthorized } from '../lib/api-client';
import { sessionQueryKey } from '../lib/session';

export interface ProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function Providers({ queryClient, children }: ProvidersProps) {
  // A 401 on any call means the session ended elsewhere: forget the user, and the guard returns to /login.
  useEffect(() => onUnauthorized(() => queryClient.setQueryData(sessionQueryKey, null)), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
