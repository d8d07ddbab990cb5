import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toast } from '../components/ui/toast-store';
import { ApiRequestError } from './api-client';
import { errorToastOf } from './error-toasts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A failed call raises its error toast here, once for every feature (lib/error-toasts.ts).
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        const shown = errorToastOf(error, mutation.meta);
        if (shown) toast.error(shown.text, shown.title ? { title: shown.title } : undefined);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          failureCount < 2 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
      },
    },
  });
}
