import type { UnsubscribeResult } from '#contract/api.js';
import { UpstreamUnavailableError } from '#server/lib/errors.js';
import { parseMailto } from '#server/mail/headers/mailto.js';
import { manualAnswer, signInAgainAnswer, unsubscribeAnswer } from '../answers.js';
import type { UnsubscribeContext } from '../context.js';
import type { Sender } from '../sender.js';
import { answerFromReceipts } from './answer-from-receipts.js';
import { blockSender } from './block.js';
import { sendMailtoRequest } from './mailto.js';
import { tryOneClick } from './one-click.js';

export interface UnsubscribeSenderInput {
  userId: string;
  sender: Sender;
  /** The user agreed that a block (the last way out) trashes mail without list headers too. */
  confirmBlock?: boolean;
  /** A block, when it is the way out, also moves the sender's existing mail to the trash (the spec's default). */
  trashOnBlock?: boolean;
}

/**
 * The ways out, in order (docs/decisions/019-the-unsubscribe-engine.md): what was done already, RFC 8058
 * one-click, a mailto request from the user's mailbox, the sender's page for the user to open, a block.
 * A mailto that cannot be sent never falls through to a silent block: with no page left, the user is
 * asked (UpstreamUnavailableError with `offerBlock`).
 */
export async function unsubscribeSender(
  ctx: UnsubscribeContext,
  { userId, sender, confirmBlock, trashOnBlock = true }: UnsubscribeSenderInput,
): Promise<UnsubscribeResult> {
  const done = await answerFromReceipts(ctx, sender);
  if (done) return done;
  if (sender.mailbox.status === 'reauth') return signInAgainAnswer(sender, 'mailto');
  const http = sender.unsubscribeHttp;

  const https = http.find((u) => /^https:/i.test(u));
  if (sender.oneClick && https && (await tryOneClick(ctx, { userId, sender, uri: https }))) {
    return unsubscribeAnswer(sender, 'one-click', { oneClickUnsubscribeSuccess: true });
  }

  // The first mailto that is safe to send (links stored by older versions are checked again here).
  for (const uri of sender.unsubscribeMailto) {
    const parsed = parseMailto(uri);
    if (!parsed.ok) continue;
    const sent = await sendMailtoRequest(ctx, { userId, sender, uri, request: parsed.request });
    if ('done' in sent) return sent.done;
    // Not sent: the sender's pages are still a way out; with none, the user decides (never a silent block).
    if (http.length > 0) return manualAnswer(sender);
    throw new UpstreamUnavailableError(sent.failed, { offerBlock: true });
  }

  // Only web pages left: the user opens one, the server never requests them.
  if (http.length > 0) return manualAnswer(sender);
  // No usable link at all.
  return blockSender(ctx, { userId, sender, confirmBlock, trash: trashOnBlock });
}
