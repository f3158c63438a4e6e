import type { ImapProfileRun } from '#test/fixtures/imap-profiles.js';
import { rawMessage } from '#test/helpers/mail.js';
import type { ContractMailbox, PortHarness } from '../port-contract.js';
import { mailClient } from './mail-client.js';

// The port contract's harness on an IMAP profile (a real server, possibly behind the capability-stripping
// proxy): mail is put in and looked at over a second session on the real server, as the user's client.

export function imapContractHarness(on: ImapProfileRun): PortHarness {
  return {
    // RFC 3501 §5.1: mailbox names are case-sensitive, INBOX aside.
    capabilities: { caseSensitiveFolders: true, labels: false },
    async newMailbox(label): Promise<ContractMailbox> {
      const { account, server, seed, provider } = await on.newAccount(label);
      const user = await mailClient(server, account);
      const pathOf = (where: 'inbox' | 'trash' | { folder: string }) =>
        where === 'inbox' ? seed.path() : where === 'trash' ? seed.path('Trash') : where.folder;
      return {
        provider: provider(),
        async folder(name) {
          const path = seed.path(name);
          await user.createFolder(path);
          return path;
        },
        async deliver(where, mail) {
          for (const m of mail) {
            await seed.append(
              pathOf(where),
              rawMessage({ ...m, listUnsubscribe: '<https://list.example/u>' }),
            );
          }
        },
        subjects: async (where) => (await user.subjects())[pathOf(where)] ?? [],
        markRead: (subject) => seed.markSeen(seed.path(), subject),
        remove: (where, subject) => user.remove(pathOf(where), subject),
        deleteFolder: (path) => user.deleteFolder(path),
        close: async () => void (await Promise.all([seed.close(), user.close()])),
      };
    },
  };
}
