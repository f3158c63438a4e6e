import type { UnsubscribeMethod, UnsubscribeResult } from '#contract/api.js';
import { NotFoundError, ReauthRequiredError } from '#server/lib/errors.js';
import { reauthUrl } from '../mailboxes/service.js';
import type { UnsubscribeContext } from './context.js';
import type { Sender } from './sender.js';

// The messages and answers the engine gives, and the one way a subscription id becomes a Sender.

export const MESSAGES = {
  notFound: 'Subscription not found.',
  mailtoFailed:
    'The unsubscribe email could not be sent. Please try again, or block the sender to move its mail to the trash.',
  mailtoUnavailable:
    'Inbox Genie cannot send email from this mailbox, so the unsubscribe email was not sent. You can block the sender instead.',
  reauth: 'Please sign in to your mailbox again.',
} as const;

export const UNDO_MESSAGES = {
  notKept: 'Only a kept sender goes back to the review list.',
  notBlocked: 'This sender is not blocked.',
} as const;

/** Why a block must be confirmed: mail from the sender that carries no list headers would be trashed too. */
export function unlistedBlockMessage(address: string, unlisted: number, total: number): string {
  const some = total === 1 ? 'The only message' : `${unlisted} of the ${total} messages`;
  return `${some} from ${address} ${unlisted === 1 ? 'carries' : 'carry'} no newsletter headers and may be personal mail. Blocking moves ${unlisted === 1 ? 'it' : 'them'} to the trash too, and future mail from this address goes to the trash.`;
}

/** The user's subscription; NotFoundError when it is not there or not theirs. */
export async function loadSender(
  ctx: Pick<UnsubscribeContext, 'repo'>,
  userId: string,
  subscriptionId: string,
): Promise<Sender> {
  const sender = await ctx.repo.sender(userId, subscriptionId);
  if (!sender) throw new NotFoundError(MESSAGES.notFound);
  return sender;
}

/** An answer to POST /unsubscribe: nothing done unless `extra` says so. */
export function unsubscribeAnswer(
  sender: Sender,
  method: UnsubscribeMethod,
  extra: Partial<UnsubscribeResult> = {},
): UnsubscribeResult {
  return {
    subscriptionId: sender.id,
    method,
    oneClickUnsubscribeSuccess: false,
    manualUnsubscribe: false,
    blockedAndTrashed: false,
    unsubscribeOptions: [],
    ...extra,
  };
}

/** The answer when only the sender's web pages are left: the user opens one (the server never does). */
export function manualAnswer(sender: Sender): UnsubscribeResult {
  return unsubscribeAnswer(sender, 'manual', {
    manualUnsubscribe: true,
    unsubscribeOptions: sender.unsubscribeHttp,
  });
}

/** Whether an answer moved the sender to unsubscribed (what uses one of the trial's unsubscribes). */
export function movedToUnsubscribed(answer: UnsubscribeResult): boolean {
  return !answer.authUrl && (answer.oneClickUnsubscribeSuccess || answer.blockedAndTrashed);
}

/** The answer when the sender's mailbox needs signing in again: `authUrl` says where. */
export function signInAgainAnswer(sender: Sender, method: UnsubscribeMethod): UnsubscribeResult {
  return unsubscribeAnswer(sender, method, { authUrl: reauthUrl(sender.mailbox) });
}

/** The mailbox refused our credentials: it is marked for signing in again, and the answer says where. */
export async function reauthAnswer(
  ctx: Pick<UnsubscribeContext, 'mailboxes'>,
  sender: Sender,
  method: UnsubscribeMethod,
): Promise<UnsubscribeResult> {
  await ctx.mailboxes.markReauth(sender.mailbox.id);
  return signInAgainAnswer(sender, method);
}

/** A refusal for work that cannot go on until the user signs in to the sender's mailbox again. */
export function reauthRequired(sender: Sender): ReauthRequiredError {
  return new ReauthRequiredError(MESSAGES.reauth, { redirectUrl: reauthUrl(sender.mailbox) });
}
