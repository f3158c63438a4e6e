// The account's signed-in sessions (GET /account/sessions): signing one other browser out (DELETE
// /account/sessions/:id) or every one but this (POST /account/sessions/revoke-others).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SessionInfo, sessionListSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

export const getSessions = async (): Promise<SessionInfo[]> =>
  (await api.get(API.sessions, sessionListSchema)).data;
export const revokeSession = (id: string) => api.send('DELETE', API.session(id));
export const revokeOtherSessions = () => api.send('POST', API.revokeOtherSessions);

export const SESSIONS_KEY = [...USER_KEY, 'security', 'sessions'] as const;

export const useSessions = () =>
  useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: getSessions,
    meta: { errorMessage: 'Failed to fetch sessions.' },
  });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<SessionInfo[]>(SESSIONS_KEY, (list) => list?.filter((s) => s.id !== id));
    },
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => {
      queryClient.setQueryData<SessionInfo[]>(SESSIONS_KEY, (list) => list?.filter((s) => s.current));
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
  });
}
