import type { UnsubscribeContext } from '../context.js';
import { verifyOneClickSignature } from '../dkim.js';
import { oneClickUnsubscribe } from '../one-click-request.js';
import type { Sender } from '../sender.js';

/** The sender's newest messages read for a DKIM signature that vouches for its one-click link. */
const DKIM_MESSAGES_TRIED = 3;

export interface OneClickInput {
  userId: string;
  sender: Sender;
  /** The sender's https unsubscribe link. */
  uri: string;
}

/**
 * Whether one of the sender's newest messages, read from the mailbox now and not kept, vouches for the
 * one-click POST to `uri` with a DKIM signature over its List-Unsubscribe fields (RFC 8058 §3.1): what
 * the signature said, or null. When none does, a receipt says why and the POST is not made: the next
 * steps (mailto, the link for the user to open) follow, as Gmail shows no one-click button for such mail.
 */
export async function dkimVouchesForOneClick(
  ctx: UnsubscribeContext,
  { userId, sender, uri }: OneClickInput,
): Promise<string | null> {
  let last = 'no message of the sender to check';
  const provider = ctx.providers(sender.mailbox);
  try {
    for (const id of await ctx.repo.newestMessageIds(sender.id, DKIM_MESSAGES_TRIED)) {
      const raw = await provider.fetchMessage(id);
      if (!raw) continue;
      const verdict = await verifyOneClickSignature(raw, sender.address, uri, ctx.oneClick.dnsResolver);
      const said = `DKIM ${verdict.result}${verdict.domain ? ` (d=${verdict.domain})` : ''}`;
      if (verdict.ok) return said;
      last = said;
    }
  } catch (error) {
    last = `the message could not be read: ${(error as Error).message}`;
  } finally {
    await provider.close();
  }
  await ctx.repo.receipt(
    userId,
    sender.id,
    { method: 'one-click', target: uri, ok: false, detail: `not sent: ${last}` },
    ctx.now(),
  );
  return null;
}

/**
 * The first way out, RFC 8058 one-click: made only when the sender asked for it, the link is https and
 * its DKIM vouches for it. True when the sender accepted (and is now unsubscribed).
 */
export async function tryOneClick(ctx: UnsubscribeContext, input: OneClickInput): Promise<boolean> {
  const { userId, sender, uri } = input;
  const signed = await dkimVouchesForOneClick(ctx, input);
  if (!signed) return false;
  const receipt = await ctx.repo.startReceipt(
    userId,
    sender.id,
    { method: 'one-click', target: uri },
    ctx.now(),
  );
  const r = await oneClickUnsubscribe(uri, {
    allowedHosts: ctx.oneClick.allowedHosts,
    timeoutMs: ctx.oneClick.timeoutMs,
  });
  await ctx.repo.settle(receipt, {
    ok: r.ok,
    detail: `${r.ok ? `HTTP ${r.httpStatus}` : (r.error ?? `HTTP ${r.httpStatus}`)}; ${signed}`,
  });
  if (r.ok) await ctx.repo.markUnsubscribed(sender.id, ctx.now());
  return r.ok;
}
