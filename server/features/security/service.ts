import { SECURITY_MESSAGES } from '#contract/api/security.js';
import { MESSAGES } from '#contract/validation.js';
import type { SecretBox } from '#server/lib/crypto.js';
import { createBackoff } from '../accounts/backoff.js';
import type { AccountsRepository } from '../accounts/repository.js';
import type { AccountsService } from '../accounts/service.js';
import { createPasskeys } from './passkeys.js';
import { createPasswordChange } from './password.js';
import type { SecurityRepository } from './repository.js';
import { createSessions } from './sessions.js';
import { createTotp } from './totp.js';

// Account security (docs/decisions/091-second-factors-passkeys-and-sessions.md): the second factor,
// passkeys, the sessions list and the password change, over one repository. Codes are guessed against the
// same backoff as passwords.

export interface SecurityDeps {
  repo: SecurityRepository;
  accountsRepo: AccountsRepository;
  accounts: Pick<AccountsService, 'emailStatus' | 'endSessions'>;
  secrets: SecretBox;
  publicUrl: string;
  now?: () => number;
}

export function createSecurityService({
  repo,
  accountsRepo,
  accounts,
  secrets,
  publicUrl,
  now = Date.now,
}: SecurityDeps) {
  const emailOf = async (userId: string) => (await accounts.emailStatus(userId)).email;
  const backoff = createBackoff(accountsRepo, now, MESSAGES.tooManyCodes);
  return {
    totp: createTotp({ repo, secrets, backoff, emailOf, now }),
    passkeys: createPasskeys({ repo, publicUrl, emailOf, now }),
    sessions: createSessions({ repo, accounts, now }),
    password: createPasswordChange({
      repo,
      accountsRepo,
      accounts,
      backoff: createBackoff(accountsRepo, now, SECURITY_MESSAGES.tooManyPasswords),
    }),
  };
}

export type SecurityService = ReturnType<typeof createSecurityService>;
