import { useEffect, useState } from 'react';
import type { PutSenderRuleBody, PutSenderRuleResponse } from '#contract/api.js';
import { ApiError, messageOf } from '../../../lib/api-client';
import { putSenderRule } from './put-sender-rule';

/** How long the fields must rest before the dialog asks what saving would do. */
const SETTLE_MS = 400;

export type RulePreview =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'ready'; answer: PutSenderRuleResponse }
  /** `status` 402 (a plan is needed) and the like are Save's to explain; the preview only stays quiet. */
  | { state: 'failed'; status: number | null; message: string };

/**
 * What saving `body` would do to the sender's mail now (PUT /sender-rules/:id with dryRun: a read of the
 * mailbox that changes nothing), asked once the fields have rested; null `body` (a field with a mistake):
 * nothing. Outside the query cache on purpose: its 402 must not jump to /pricing, and an answer for fields
 * the user has since changed is dropped.
 */
export function useRulePreview(subscriptionId: string, body: PutSenderRuleBody | null): RulePreview {
  const key = body ? JSON.stringify(body.rule) : null;
  const [preview, setPreview] = useState<RulePreview>({ state: 'idle' });
  useEffect(() => {
    if (key === null) {
      setPreview({ state: 'idle' });
      return;
    }
    let current = true;
    setPreview({ state: 'checking' });
    const timer = setTimeout(() => {
      putSenderRule(subscriptionId, { rule: JSON.parse(key), dryRun: true }).then(
        (answer) => current && setPreview({ state: 'ready', answer }),
        (error: unknown) =>
          current &&
          setPreview({
            state: 'failed',
            status: error instanceof ApiError ? error.status : null,
            message: messageOf(error, 'Could not check what saving will do.'),
          }),
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [subscriptionId, key]);
  return preview;
}
