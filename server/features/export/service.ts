import { randomUUID } from 'node:crypto';
import type { Passkey } from '#contract/api/security.js';
import { EXPORT_CSV_COLUMNS, EXPORT_FORMAT, EXPORT_VERSION } from '#contract/api.js';
import { FREE_TRIAL } from '#contract/billing.js';
import type { CsvSubscription, ExportRepository } from './repository.js';

// "Your data to take away" (docs/decisions/081-data-export.md): everything stored about the user as one
// JSON document, and the subscription list as CSV. Both are produced as a sequence of text chunks, one
// page of rows at a time (the repository reads by keyset, PAGE rows per query): with 50,000 message
// references the process holds one page and the chunk made of it, never the whole file, and the HTTP
// stream asks for the next chunk only when the client has taken the previous one (backpressure).

/** The file's name with the day, UTC: inbox-genie-export-YYYY-MM-DD.json, inbox-genie-subscriptions-….csv. */
export function exportFileName(now: Date, extension: 'json' | 'csv'): string {
  const stem = extension === 'json' ? 'inbox-genie-export' : 'inbox-genie-subscriptions';
  return `${stem}-${now.toISOString().slice(0, 10)}.${extension}`;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma, CR or LF, quotes doubled. A field a
 * spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe
 * first: sender names and addresses are written by the senders.
 */
export function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(fields: readonly (string | number | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvLine(s: CsvSubscription): string {
  return csvRow([
    s.name,
    s.address,
    s.mailbox,
    s.category,
    s.messageCount,
    s.lastMessageAt,
    // As the list shows them: per month over the last 90 days, read rate as a share of known read states.
    Math.round((s.recentCount / 3) * 10) / 10,
    s.readKnown > 0 ? Math.round(Math.min(1, s.readCount / s.readKnown) * 1000) / 1000 : null,
    s.unsubscribedAt,
    s.method,
  ]);
}

/** `"name":[rows…]` of one table, a page per chunk. */
async function* section<R>(name: string, pages: AsyncIterable<R[]>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const page of pages) {
    if (page.length === 0) continue;
    yield `${first ? '' : ','}${page.map((row) => JSON.stringify(row)).join(',')}`;
    first = false;
  }
  yield ']';
}

export function createExportService(deps: {
  repo: ExportRepository;
  /** The user's passkeys as Settings lists them (names and dates; public keys stay out). */
  passkeys: (userId: string) => Promise<Passkey[]>;
  now?: () => number;
}) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;

  async function audit(userId: string, action: 'export-json' | 'export-csv', at: number): Promise<void> {
    await repo.addAudit({ id: randomUUID(), userId, action, at });
  }

  return {
    /**
     * The export's chunks. The audit row is written before the first chunk (an export asked for is an
     * export recorded, even if the download is cut), so the file lists itself.
     */
    async json(userId: string): Promise<{ fileName: string; chunks: AsyncGenerator<string> }> {
      const at = now();
      const account = await repo.account(userId);
      // Only signed-in users get here; a user deleted meanwhile is a server error, as any missing row.
      if (!account) throw new Error(`No user ${userId}`);
      await audit(userId, 'export-json', at);
      const { trialUnsubscribesUsed, ...accountFields } = account;
      async function* chunks(): AsyncGenerator<string> {
        const head = {
          format: EXPORT_FORMAT,
          version: EXPORT_VERSION,
          exportedAt: new Date(at).toISOString(),
          account: accountFields,
          trialUsage: {
            unsubscribesUsed: trialUnsubscribesUsed,
            unsubscribesIncluded: FREE_TRIAL.unsubscribes,
          },
          billing: await repo.billing(userId),
          accountAudit: await repo.audit(userId),
          weeklyReports: await repo.weeklyReports(userId),
          mailboxes: await repo.mailboxes(userId),
          passkeys: await deps.passkeys(userId),
        };
        // The small sections at once, without the closing brace; the tables follow page by page.
        yield JSON.stringify(head).slice(0, -1);
        yield* section('senders', repo.senders(userId));
        yield* section('messages', repo.messages(userId));
        yield* section('senderRules', repo.senderRules(userId));
        yield* section('movedMessages', repo.movedMessages(userId));
        yield* section('trashedMessages', repo.trashedMessages(userId));
        yield* section('blockRules', repo.blockRules(userId));
        yield* section('unsubscribeReceipts', repo.unsubscribeReceipts(userId));
        yield* section('bulkActions', repo.bulkActions(userId));
        yield* section('bulkItems', repo.bulkItems(userId));
        yield* section('activity', repo.activity(userId));
        yield '}\n';
      }
      return { fileName: exportFileName(new Date(at), 'json'), chunks: chunks() };
    },

    /** The subscription list, header first, one row per subscription sender. */
    async csv(userId: string): Promise<{ fileName: string; chunks: AsyncGenerator<string> }> {
      const at = now();
      await audit(userId, 'export-csv', at);
      async function* chunks(): AsyncGenerator<string> {
        yield csvRow(EXPORT_CSV_COLUMNS);
        for await (const page of repo.csvSubscriptions(userId)) yield page.map(csvLine).join('');
      }
      return { fileName: exportFileName(new Date(at), 'csv'), chunks: chunks() };
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
