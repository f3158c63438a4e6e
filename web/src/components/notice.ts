// One-time messages a screen hands to the next one through the router's state (e.g. after a password
// reset, on the sign-in page): shown once on arrival, then removed from the history entry so that a
// reload or a later visit does not show it again (route-notice.tsx).

export const NOTICES = {
  passwordChanged: 'Your password was changed. Sign in with the new one.',
  accountDeleted: 'Your account and everything stored with it has been deleted.',
} as const;

export type NoticeId = keyof typeof NOTICES;

/** The router state that carries notice `id` to the next screen. */
export function noticeState(id: NoticeId): { notice: NoticeId } {
  return { notice: id };
}

/** The notice a history entry's state carries, or null (any other state, or an unknown id). */
export function noticeOf(state: unknown): NoticeId | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as { notice?: unknown }).notice;
  return typeof id === 'string' && Object.hasOwn(NOTICES, id) ? (id as NoticeId) : null;
}
