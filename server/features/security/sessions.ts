import type { SessionInfo } from '#contract/api/security.js';
import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { hashToken } from '#server/lib/crypto.js';
import { NotFoundError } from '#server/lib/errors.js';
import type { AccountsService } from '../accounts/service.js';
import { sessionIdOf } from '../accounts/service.js';
import type { SecurityRepository } from './repository.js';

// The account's sessions as its owner sees them (Settings → Security): each browser signed in, when, and
// from what; one or all the others can be signed out. A session is named by a hash of its stored id, so
// the list never shows anything a cookie could be made from.

/** The public id of a stored session id. */
export const publicSessionId = (storedId: string): string => hashToken(`session:${storedId}`).slice(0, 24);

export interface SessionsDeps {
  repo: SecurityRepository;
  accounts: Pick<AccountsService, 'endSessions'>;
  now?: () => number;
}

export function createSessions({ repo, accounts, now = Date.now }: SessionsDeps) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    async list(userId: string, currentToken: string | undefined): Promise<SessionInfo[]> {
      const current = currentToken ? sessionIdOf(currentToken) : null;
      return (await repo.sessionsOf(userId, now())).map((s) => ({
        id: publicSessionId(s.id),
        current: s.id === current,
        createdAt: new Date(s.createdAt).toISOString(),
        lastSeenAt: iso(s.lastSeenAt),
        userAgent: s.userAgent,
      }));
    },

    /** Signs out one session of the user (their current one too, if they name it). */
    async revoke(userId: string, publicId: string): Promise<void> {
      const found = (await repo.sessionsOf(userId, now())).find((s) => publicSessionId(s.id) === publicId);
      if (!found) throw new NotFoundError(SECURITY_MESSAGES.sessionNotFound);
      await accounts.endSessions({ sessionId: found.id });
    },

    async revokeOthers(userId: string, currentToken: string | undefined): Promise<void> {
      await accounts.endSessions({
        userId,
        exceptSessionId: currentToken ? sessionIdOf(currentToken) : null,
      });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
