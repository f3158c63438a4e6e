// Whether an unsubscribed sender kept sending (the check after each scan flags it, and may block it).

/** The grace period the big mailbox providers give a sender to honour an unsubscribe. */
export const STILL_SENDING_GRACE_MS = 2 * 24 * 60 * 60 * 1000;

/** Mail dated more than the grace period after the unsubscribe means the sender ignored it. */
export function isStillSending(lastMessageAt: number | null, unsubscribedAt: number | null): boolean {
  return (
    lastMessageAt !== null &&
    unsubscribedAt !== null &&
    lastMessageAt > unsubscribedAt + STILL_SENDING_GRACE_MS
  );
}
