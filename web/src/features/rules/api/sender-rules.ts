import { useQuery } from '@tanstack/react-query';
import { senderRulesResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { ruleKeys } from './keys';

/** Every rule of the user's senders, by sender name (GET /sender-rules). */
export const getSenderRules = () => api.get(API.senderRules, senderRulesResponseSchema);

/** The Rules screen's list. */
export function useSenderRules() {
  return useQuery({
    queryKey: ruleKeys.list,
    queryFn: async () => (await getSenderRules()).data,
    meta: { errorMessage: 'Failed to fetch the rules...' },
  });
}
