import { hash, verify } from '@node-rs/argon2';
import { type ChangePasswordBody, SECURITY_MESSAGES } from '#contract/api/security.js';
import { hashToken } from '#server/lib/crypto.js';
import { InvalidInputError, NotAuthenticatedError } from '#server/lib/errors.js';
import type { createBackoff } from '../accounts/backoff.js';
import type { AccountsRepository } from '../accounts/repository.js';
import { type AccountsService, ARGON2, sessionIdOf } from '../accounts/service.js';
import type { SecurityRepository } from './repository.js';

// Changing the password from Settings (docs/decisions/102-settings-that-say-what-they-do.md): the current
// one is asked, so a browser left signed in cannot take the account over; the change keeps this session
// and ends every other, as a reset does.

export interface PasswordChangeDeps {
  repo: SecurityRepository;
  accountsRepo: AccountsRepository;
  accounts: Pick<AccountsService, 'endSessions'>;
  /** Wrong current passwords are counted like sign-in's, per account. */
  backoff: ReturnType<typeof createBackoff>;
}

export function createPasswordChange({ repo, accountsRepo, accounts, backoff }: PasswordChangeDeps) {
  return {
    /** Replaces the password of the user signed in with `currentToken`, and signs out their other sessions. */
    async change(userId: string, currentToken: string | undefined, body: ChangePasswordBody): Promise<void> {
      const user = await accountsRepo.findUserById(userId);
      if (!user) throw new NotAuthenticatedError(SECURITY_MESSAGES.signinExpired);
      // Google and Microsoft accounts have no password to prove: one is added by a reset link instead,
      // which proves the mailbox (a session alone must not be enough to add a way in). A stand-in account
      // (duplicate sign-up) has the visitor's password and changes it like any other.
      const stored = user.passwordHash;
      if (!stored) throw new InvalidInputError(SECURITY_MESSAGES.noPasswordToChange);
      if (!body.currentPassword) throw new InvalidInputError(SECURITY_MESSAGES.currentPasswordRequired);
      const ok = await backoff.attempt(hashToken(`password-change:${userId}`), () =>
        verify(stored, body.currentPassword),
      );
      if (!ok) throw new InvalidInputError(SECURITY_MESSAGES.wrongCurrentPassword);
      const next = await hash(body.newPassword, ARGON2);
      if (!(await repo.replacePasswordHash(userId, stored, next))) {
        throw new InvalidInputError(SECURITY_MESSAGES.wrongCurrentPassword);
      }
      await accounts.endSessions({
        userId,
        exceptSessionId: currentToken ? sessionIdOf(currentToken) : null,
      });
    },
  };
}

export type PasswordChange = ReturnType<typeof createPasswordChange>;
