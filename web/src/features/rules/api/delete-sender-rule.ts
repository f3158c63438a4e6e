import { deleteSenderRuleResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Removes a sender's rule (DELETE /sender-rules/:subscriptionId); with `restore`, the mail it had moved goes
 * back where it was, and the answer counts it.
 */
export const deleteSenderRule = (subscriptionId: string, restore: boolean) =>
  api.delete(
    `${API.senderRule(subscriptionId)}${restore ? '?restore=true' : ''}`,
    deleteSenderRuleResponseSchema,
  );
