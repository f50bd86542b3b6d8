import { MutationCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { forgetRefusedToken } from "../lib/maintainerToken";

export const queryClient = new QueryClient({
  // Every write carries the maintainer's token: one the service refused is forgotten, whichever form sent it.
  mutationCache: new MutationCache({ onError: forgetRefusedToken }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // Retry only failures that may pass: network errors and 5xx, not 4xx answers.
      retry: (count, error) =>
        count < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
    },
  },
});
