import { googleEndpoints, refreshAccessToken } from '#server/mail/gmail/google-oauth.js';
import { allIds, newGmailMailbox } from '#test/fixtures/gmail.js';
import type { GoogleEmulator } from '#test/helpers/google-emulator.js';
import type { ContractMailbox, ContractPlace, PortHarness } from '../port-contract.js';

// The port contract's harness on @emulators/google: a folder is a user label, mail is delivered with
// messages.insert's history (the emulator's `insert`), and the user's hands are a client of the same grant.

export function gmailContractHarness(emu: GoogleEmulator): PortHarness {
  return {
    capabilities: { caseSensitiveFolders: false, labels: true },
    async newMailbox(label): Promise<ContractMailbox> {
      const box = await newGmailMailbox(emu, label);
      const query = (where: ContractPlace) =>
        where === 'inbox' ? 'in:inbox' : where === 'trash' ? 'in:trash' : `label:${where.folder}`;
      async function messages(where: ContractPlace): Promise<Array<{ id: string; subject: string }>> {
        const ids = await allIds(box.observer, query(where));
        const got = await box.observer.getMetadata(ids, ['Subject']);
        return ids.map((id) => ({
          id,
          subject: got.get(id)?.payload?.headers?.find((h) => h.name === 'Subject')?.value ?? '',
        }));
      }
      async function idOf(where: ContractPlace, subject: string): Promise<string> {
        const found = (await messages(where)).find((m) => m.subject === subject);
        if (!found) throw new Error(`No message "${subject}" in ${JSON.stringify(where)}`);
        return found.id;
      }
      async function asUser(method: string, path: string): Promise<void> {
        const { token } = await refreshAccessToken({
          endpoints: googleEndpoints(emu.baseUrl),
          clientId: emu.clientId,
          clientSecret: emu.clientSecret,
          refreshToken: box.refreshToken,
        });
        const res = await fetch(`${emu.baseUrl}${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}` },
        });
        if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
      }
      return {
        provider: box.provider,
        folder: async (name) => (await box.provider.createFolder(name)).path,
        async deliver(where, mail) {
          const labels = where === 'inbox' ? ['INBOX', 'UNREAD'] : [where.folder, 'UNREAD'];
          emu.insert(
            box.email,
            mail.map((m) => ({
              ...m,
              body: 'This week. Unsubscribe: https://list.example/u',
              listUnsubscribe: '<https://list.example/u>',
              labels,
            })),
          );
        },
        subjects: async (where) => (await messages(where)).map((m) => m.subject).sort(),
        markRead: async (subject) => box.observer.batchModify([await idOf('inbox', subject)], [], ['UNREAD']),
        remove: async (where, subject) =>
          asUser('DELETE', `/gmail/v1/users/me/messages/${await idOf(where, subject)}`),
        deleteFolder: (path) => asUser('DELETE', `/gmail/v1/users/me/labels/${path}`),
        close: () => box.provider.close(),
      };
    },
  };
}
