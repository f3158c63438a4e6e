import { type PutSenderRuleBody, putSenderRuleResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Sets a sender's rule and applies it once (PUT /sender-rules/:subscriptionId); answers the stored rule and
 * what it did. 402: rules need Premium; 409: the sender is blocked; 400: a field's message. Called
 * outside the mutation cache on purpose: its 402 is the dialog's to show, not a jump to /pricing.
 */
export const putSenderRule = (subscriptionId: string, body: PutSenderRuleBody) =>
  api.put(API.senderRule(subscriptionId), body, putSenderRuleResponseSchema);
