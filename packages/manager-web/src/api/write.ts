import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';

/** What a page does once a write answers: say so, close its dialog, place the errors. */
export type WriteCallbacks<TData, TVariables> = Pick<
  UseMutationOptions<TData, Error, TVariables>,
  'onSuccess' | 'onError'
>;

/** A write that marks the reads under `keys` stale once it succeeds, then runs the page's own `onSuccess`. */
export function useWrite<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  keys: readonly QueryKey[],
  callbacks: WriteCallbacks<TData, TVariables> = {},
) {
  const client = useQueryClient();
  return useMutation<TData, Error, TVariables>({
    mutationFn,
    onError: callbacks.onError,
    onSuccess: (...args) => {
      for (const queryKey of keys) void client.invalidateQueries({ queryKey });
      return callbacks.onSuccess?.(...args);
    },
  });
}
