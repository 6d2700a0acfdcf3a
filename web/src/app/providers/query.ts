import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refused call will be refused again; only network trouble is worth a retry.
      retry: (count, error) => count < 2 && error instanceof ApiError && error.status === 0,
    },
  },
});
