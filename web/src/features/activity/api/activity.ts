import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type ActivityEntry, activityResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';
import { ruleKeys } from '../../rules';
import { subscriptionKeys } from '../../subscriptions';

/** Entries per page of the Activity screen ("Show more" asks for the next). */
export const ACTIVITY_PAGE_SIZE = 20;

export const activityKeys = { list: [...USER_KEY, 'activity'] as const };

/** One page of the history, newest first (GET /activity?limit=&cursor=). */
export const getActivity = (cursor: string | null) => {
  const params = new URLSearchParams({ limit: String(ACTIVITY_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  return api.get(`${API.activity}?${params}`, activityResponseSchema);
};

/** The history, read again at every visit: what moved mail happens on other screens and at checks. */
export function useActivity() {
  const query = useInfiniteQuery({
    queryKey: activityKeys.list,
    queryFn: ({ pageParam }) => getActivity(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
    meta: { errorMessage: 'Failed to fetch the activity...' },
  });
  return {
    entries: query.data ? query.data.pages.flatMap((page) => page.data) : null,
    query,
  };
}

/** After an undo: the entry in place, and the lists, messages and rules it may have changed read again. */
export function useAfterUndo() {
  const queryClient = useQueryClient();
  return (entry: ActivityEntry) => {
    queryClient.setQueryData<{ pages: Array<{ data: ActivityEntry[] }> }>(
      activityKeys.list,
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            data: page.data.map((e) => (e.id === entry.id ? entry : e)),
          })),
        },
    );
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
    if (entry.subscriptionId) {
      void queryClient.invalidateQueries({ queryKey: subscriptionKeys.messages(entry.subscriptionId) });
    }
    void queryClient.invalidateQueries({ queryKey: ruleKeys.list });
    void queryClient.invalidateQueries({ queryKey: ruleKeys.blocked });
  };
}
