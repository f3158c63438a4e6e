import type { GraphProviderOptions } from '#server/mail/graph/adapter.js';
import { GraphClient, microsoftBaseUrls } from '#server/mail/graph/client.js';
import type { GraphFake } from '#test/helpers/graph-fake.js';
import { newGraphMailbox } from '#test/helpers/graph-user.js';
import type { ContractMailbox, ContractPlace, PortHarness } from '../port-contract.js';

// The port contract's harness on the Graph fake: folders are top-level folders (path = display name),
// and the user's hands are the fake's own mailbox model (as Outlook's other clients change it).

export function graphContractHarness(
  fake: GraphFake,
  options: Partial<GraphProviderOptions> = {},
): PortHarness {
  return {
    capabilities: { caseSensitiveFolders: false, labels: false },
    async newMailbox(label): Promise<ContractMailbox> {
      const t = newGraphMailbox(fake, label, options);
      const provider = t.provider();
      const client = new GraphClient({
        refreshToken: t.refreshToken,
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        ...microsoftBaseUrls(fake.url),
      });
      /** The fake's id of a place: a top-level folder by its path (its display name), through Graph. */
      async function folderId(where: ContractPlace): Promise<string | undefined> {
        if (where === 'inbox') return 'inbox';
        if (where === 'trash') return 'deleteditems';
        const page = await client.get<{ value: Array<{ id: string; displayName: string }> }>(
          '/me/mailFolders?$top=100&$select=id,displayName',
        );
        return page.value.find((f) => f.displayName === where.folder)?.id;
      }
      const messages = async (where: ContractPlace) => {
        const id = await folderId(where);
        return id ? t.box.messagesIn(id) : []; // none in a folder deleted
      };
      const idOf = async (where: ContractPlace, subject: string) => {
        const found = (await messages(where)).find((m) => m.subject === subject);
        if (!found) throw new Error(`No message "${subject}" in ${JSON.stringify(where)}`);
        return found.id;
      };
      return {
        provider,
        async folder(name) {
          if (!(await folderId({ folder: name }))) t.box.addFolder(name);
          return name;
        },
        async deliver(where, mail) {
          for (const m of mail) {
            const [, name = '', address = m.from] = /^(.*?)\s*<([^>]+)>$/.exec(m.from) ?? [];
            t.box.addMessage((await folderId(where))!, {
              subject: m.subject,
              from: { name: name.replace(/^"|"$/g, '') || address.split('@')[0]!, address },
              receivedDateTime: m.date.toISOString().replace('.000Z', 'Z'),
              headers: [{ name: 'From', value: m.from }],
            });
          }
        },
        subjects: async (where) => (await messages(where)).map((m) => m.subject).sort(),
        markRead: async (subject) => t.box.markRead(await idOf('inbox', subject)),
        remove: async (where, subject) => t.box.deleteMessage(await idOf(where, subject)),
        deleteFolder: async (path) => t.box.deleteFolder((await folderId({ folder: path }))!),
        close: () => provider.close(),
      };
    },
  };
}
