// Saving and removing a sender's rule, with a note of what it did and Undo (the subscriptions' toasts,
// components/toasts.tsx). Undo of a new rule removes it and puts the mail back; undo of an edit does the
// same, then sets the previous rule again. The calls bypass the mutation cache: a 402 is the dialog's
// to explain (with a link to the plans), not a jump away from the user's half-filled form.
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { PutSenderRuleBody, SenderRule, SenderRuleRow } from '#contract/api.js';
import { SCREENS } from '#contract/routes.js';
import { useToasts } from '../../components/toasts';
import { isStatus, messageOf } from '../../lib/api-client';
import { setSubscriptionRule, subscriptionKeys } from '../subscriptions';
import { deleteSenderRule } from './api/delete-sender-rule';
import { ruleKeys } from './api/keys';
import { putSenderRule } from './api/put-sender-rule';
import { bodyOfRule } from './rule-form';
import { appliedText, removedText, undoneText } from './rule-outcomes';

/** The sender a rule belongs to: a row of GET /sender-rules, or a subscription row (rule null: none yet). */
export type RuleTarget = Omit<SenderRuleRow, 'rule'> & { rule: SenderRule | null };

export function senderOf(target: Pick<RuleTarget, 'senderName' | 'address'>): string {
  return target.senderName.trim() || target.address;
}

export function useRuleActions() {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const navigate = useNavigate();

  /**
   * The rule as the server now has it, in the rows and the Rules screen; the sender's count and messages
   * are read again, as the rule (or its undo) may have moved mail.
   */
  function stored(target: RuleTarget, rule: SenderRule | null) {
    setSubscriptionRule(queryClient, target.subscriptionId, rule);
    void queryClient.invalidateQueries({ queryKey: ruleKeys.list });
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.messages(target.subscriptionId) });
    void queryClient.invalidateQueries({ queryKey: subscriptionKeys.lists });
  }

  /** A failed Undo or removal outside the dialog: a note, with the plans when a plan is needed. */
  function failed(error: unknown, fallback: string) {
    console.warn(fallback, error);
    toasts.show({
      text: messageOf(error, fallback),
      ...(isStatus(error, 402)
        ? { action: { label: 'See plans', run: () => navigate(SCREENS.pricing) } }
        : {}),
    });
  }

  async function undo(target: RuleTarget, previous: SenderRule | null) {
    const sender = senderOf(target);
    try {
      const { restored } = await deleteSenderRule(target.subscriptionId, true);
      stored(target, null);
      if (previous) {
        const { rule } = await putSenderRule(target.subscriptionId, bodyOfRule(previous));
        stored(target, rule);
      }
      toasts.show({ text: undoneText(sender, restored, previous !== null) });
    } catch (error) {
      failed(error, 'Failed to undo. Please try again.');
    }
  }

  /** PUT the rule; the toast says what it did, with Undo. Failures are thrown for the dialog to show. */
  async function save(target: RuleTarget, body: PutSenderRuleBody): Promise<SenderRule> {
    const previous = target.rule;
    const { rule, applied } = await putSenderRule(target.subscriptionId, body);
    stored(target, rule);
    // A folder named for the first time now exists: the picker lists it next time.
    if (body.rule.folder) void queryClient.invalidateQueries({ queryKey: ruleKeys.folders(target.account) });
    const after = { ...target, rule };
    toasts.show({
      text: appliedText(applied, rule, senderOf(target)),
      action: { label: 'Undo', run: () => void undo(after, previous) },
    });
    return rule;
  }

  /** Removes the rule (`restore`: and puts the mail it had moved back). Failures are thrown. */
  async function remove(target: RuleTarget, restore: boolean): Promise<void> {
    const { restored } = await deleteSenderRule(target.subscriptionId, restore);
    stored(target, null);
    toasts.show({ text: removedText(senderOf(target), restore ? restored : null) });
  }

  return { save, remove, failed };
}
