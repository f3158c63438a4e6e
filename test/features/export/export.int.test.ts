import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DataExport, dataExportSchema, EXPORT_CSV_COLUMNS } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import { EXPORT_RATE_LIMIT } from '#server/http/routes/export.js';
import { withDovecot } from '#test/fixtures/peers.js';
import {
  Client,
  createTestApp,
  DIALECTS,
  type Dialect,
  type TestApp,
  uniqueEmail,
} from '#test/helpers/app.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { seedSender, seedSenders } from '#test/helpers/seed.js';
import { type YahooUser, yahooUser } from '#test/helpers/yahoo-user.js';

// "Your data to take away": GET /export and GET /export.csv through the API, after a real scan of a
// Dovecot mailbox, with the rows the other features write (rules, moves, receipts, bulks, billing) added
// directly. The JSON holds the user's rows and no one else's, no secret appears anywhere in its text, and
// every table holding a user's rows has its section (read from the live database, so a new table cannot
// be forgotten silently); the CSV neutralises formulas; each export is audited; the limit answers 429.

const dovecot = withDovecot();

const news = (from: string, subject: string, days: number) =>
  rawMessage({
    from,
    subject,
    date: daysAgo(days),
    listUnsubscribe: `<mailto:leave@${/@([^>]+)>/.exec(from)?.[1]}>, <https://shop.example/leave>`,
  });
const personal = (from: string, subject: string, days: number) =>
  rawMessage({ from, subject, date: daysAgo(days) });

/**
 * Tables holding a user's rows that the export leaves out on purpose; every other such table must have a
 * section of the file (its name in camelCase; `users` is `account`, `billing_accounts` is `billing`).
 */
const LEFT_OUT: Record<string, string> = {
  sessions: 'session ids are credentials (sha256 of the cookie)',
  password_resets: 'reset tokens are credentials',
  email_verifications: 'verification tokens are credentials',
  unsubscribe_flights: 'a lock held while an unsubscribe runs, gone after it',
  scanned_messages: 'ids of every message counted (no sender, no content): given as a count per mailbox',
  subscription_totals:
    'SQLite only: counts of senders per category, kept by triggers (the senders are exported)',
  totp_recovery_codes: 'recovery codes are credentials (hashes); how many are left is in Settings',
  signin_challenges: 'a sign-in waiting for its code, minutes long; its id is a credential',
  webauthn_challenges: 'a passkey ceremony under way, minutes long',
  user_devices: "hashes of the browsers' device cookies, credentials of a kind; the sessions are in Settings",
};
/**
 * Tables without a user's rows: the keyed hash of deleted accounts' mailbox addresses (trial_usage), failed
 * sign-ins by hash of an address (signin_failures), Stripe's webhook events, the migrations' bookkeeping.
 */
const NOT_A_USERS = [
  'trial_usage',
  'signin_failures',
  // Mails sent about an account, by a hash of the address (the per-address budget).
  'account_mails',
  'stripe_events',
  'kysely_migration',
  'kysely_migration_lock',
];
const SECTION_OF: Record<string, string> = { users: 'account', billing_accounts: 'billing' };
const camel = (table: string) => table.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Every table of the live database with its columns and the tables its foreign keys reference. */
async function liveTables(db: Db, dialect: Dialect) {
  const tables = new Map<string, { columns: Set<string>; references: Set<string> }>();
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
    for (const { name } of rows) {
      const columns = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db);
      const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(
        db,
      );
      tables.set(name, {
        columns: new Set(columns.rows.map((c) => c.name)),
        references: new Set(fks.rows.map((f) => f.table)),
      });
    }
  } else {
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
    for (const r of rows) {
      const entry = tables.get(r.table_name) ?? { columns: new Set(), references: new Set() };
      entry.columns.add(r.column_name);
      tables.set(r.table_name, entry);
    }
    const fks = await sql<{ table_name: string; referenced: string }>`
      select tc.table_name, ccu.table_name as referenced from information_schema.table_constraints tc
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_schema = tc.constraint_schema and ccu.constraint_name = tc.constraint_name
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db);
    for (const f of fks.rows) tables.get(f.table_name)?.references.add(f.referenced);
  }
  return tables;
}

/** Tables holding a user's rows: users, those with a user's key, and those referencing such a table. */
function usersTables(tables: Awaited<ReturnType<typeof liveTables>>): string[] {
  const owning = new Set(['users']);
  const KEYS = ['user_id', 'mailbox_id', 'sender_id', 'bulk_id', 'subscription_id'];
  for (;;) {
    const before = owning.size;
    for (const [name, t] of tables) {
      if (KEYS.some((k) => t.columns.has(k)) || [...t.references].some((r) => owning.has(r)))
        owning.add(name);
    }
    if (owning.size === before) return [...owning].sort();
  }
}

describe.each(DIALECTS)('data export on %s', (dialect) => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  /** A user with a scanned mailbox, and every other kind of row written for them directly. */
  async function userWithEverything() {
    const u: YahooUser = await yahooUser(dovecot, dialect, [
      news('Deals <deals@shop.example>', 'Deal one', 1),
      news('Deals <deals@shop.example>', 'Deal two', 40),
      personal('Friend <friend@people.example>', 'Lunch?', 2),
    ]);
    open.push(u);
    const { t } = u;
    const mailbox = await t.db.selectFrom('mailboxes').selectAll().executeTakeFirstOrThrow();
    const userId = mailbox.user_id;
    const deals = await t.db
      .selectFrom('senders')
      .select('id')
      .where('address', '=', 'deals@shop.example')
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const m = { mailbox_id: mailbox.id, created_at: now };
    await t.db
      .insertInto('sender_rules')
      .values({ ...m, sender_id: deals.id, folder: 'Deals', folder_name: 'Deals', updated_at: now })
      .execute();
    await t.db
      .insertInto('moved_messages')
      .values({
        ...m,
        sender_id: deals.id,
        cause: 'rule',
        destination: '{"folder":"Deals"}',
        moved_id: 'Deals/1/1',
        origin: 'INBOX/1/1',
      })
      .execute();
    await t.db
      .insertInto('trashed_messages')
      .values({ ...m, address: 'spam@junk.example', trash_id: 'Trash/1/7', origin: 'INBOX/1/7' })
      .execute();
    await t.db
      .insertInto('block_rules')
      .values({ ...m, address: 'spam@junk.example', provider_ref: null })
      .execute();
    await t.db
      .insertInto('unsubscribe_receipts')
      .values({
        id: 'receipt-1',
        user_id: userId,
        sender_id: deals.id,
        method: 'mailto',
        target: 'leave@shop.example',
        ok: 1,
        detail: '250 OK',
        created_at: now,
        recipient: 'leave@shop.example',
      })
      .execute();
    await t.db
      .insertInto('bulk_actions')
      .values({ id: 'bulk-1', user_id: userId, action: 'keep', total: 1, created_at: now, finished_at: now })
      .execute();
    await t.db
      .insertInto('bulk_items')
      .values({
        bulk_id: 'bulk-1',
        position: 0,
        subscription_id: deals.id,
        outcome: 'kept',
        result: '{"outcome":"kept"}',
        done_at: now,
      })
      .execute();
    await t.db
      .insertInto('billing_accounts')
      .values({ user_id: userId, customer_id: 'cus_export', status: 'active', created_at: now })
      .execute();
    await t.db
      .insertInto('weekly_reports')
      .values({
        user_id: userId,
        week: '2026-W47',
        token_hash: 'weekly-report-token-hash-secret',
        claimed_at: now,
        sent_at: now,
      })
      .execute();
    await t.db
      .insertInto('password_resets')
      .values({
        token_hash: 'reset-token-hash-secret',
        user_id: userId,
        created_at: now,
        expires_at: now + 60_000,
      })
      .execute();

    // Another user of the same server, whose rows must not appear.
    const other = new Client(t.app);
    expect(
      (await other.post('/auth/signup', { email: uniqueEmail('other'), password: 'long enough' })).statusCode,
    ).toBe(200);
    const otherUser = await t.db
      .selectFrom('users')
      .select('id')
      .where('id', '!=', userId)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'other-mailbox',
        user_id: otherUser.id,
        email: 'someone-else@yahoo.com',
        provider: 'yahoo',
        created_at: now,
      })
      .execute();
    await seedSender(t.db, {
      id: 'other-sender',
      userId: otherUser.id,
      mailboxId: 'other-mailbox',
      address: 'not-yours@elsewhere.example',
      createdAt: now,
    });
    await t.db
      .insertInto('messages')
      .values({
        mailbox_id: 'other-mailbox',
        provider_id: 'INBOX/9/9',
        sender_id: 'other-sender',
        folder: 'INBOX',
        subject: 'Not yours',
        date: now,
        seen: 0,
      })
      .execute();
    await t.db
      .insertInto('account_audit')
      .values({ id: 'other-audit', user_id: otherUser.id, action: 'export-csv', created_at: now })
      .execute();
    return { ...u, userId, mailbox, dealsId: deals.id };
  }

  it('downloads everything of the user, nothing of another user, and no secret', async () => {
    const u = await userWithEverything();
    const { t, client } = u;
    const res = await client.get('/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="inbox-genie-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const text = res.body;
    const file: DataExport = dataExportSchema.parse(JSON.parse(text));

    const user = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', u.userId)
      .executeTakeFirstOrThrow();
    expect(file.account.email).toBe(user.email);
    expect(file.account.settings).toEqual({
      alertManualUnsubscribe: true,
      alertAfterUnsubscribe: true,
      autoBlockStillSending: false,
      weeklyReport: false,
    });
    expect(file.weeklyReports).toEqual([
      { week: '2026-W47', claimedAt: expect.any(String), sentAt: expect.any(String) },
    ]);
    expect(file.mailboxes).toEqual([
      expect.objectContaining({ address: u.email, provider: 'yahoo', scannedMessages: 3 }),
    ]);
    // Subscriptions and personal senders alike, with their counts and unsubscribe links.
    const deals = file.senders.find((s) => s.address === 'deals@shop.example');
    expect(deals).toMatchObject({ isSubscription: true, messageCount: 2 });
    expect(deals?.unsubscribeHttp).toEqual(['https://shop.example/leave']);
    expect(file.senders.find((s) => s.address === 'friend@people.example')).toMatchObject({
      isSubscription: false,
      messageCount: 1,
    });
    const stored = await t.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mailbox_id', '=', u.mailbox.id)
      .executeTakeFirstOrThrow();
    expect(file.messages).toHaveLength(Number(stored.n));
    expect(file.messages.map((m) => m.subject).sort()).toEqual(['Deal one', 'Deal two']);
    expect(file.senderRules).toEqual([expect.objectContaining({ senderId: u.dealsId, folder: 'Deals' })]);
    expect(file.movedMessages).toEqual([
      expect.objectContaining({ id: 'Deals/1/1', destination: { folder: 'Deals' } }),
    ]);
    expect(file.trashedMessages).toEqual([expect.objectContaining({ id: 'Trash/1/7' })]);
    expect(file.blockRules).toEqual([expect.objectContaining({ address: 'spam@junk.example' })]);
    expect(file.unsubscribeReceipts).toEqual([
      expect.objectContaining({ id: 'receipt-1', method: 'mailto', ok: true }),
    ]);
    expect(file.bulkActions).toEqual([expect.objectContaining({ id: 'bulk-1', action: 'keep' })]);
    expect(file.bulkItems).toEqual([
      expect.objectContaining({ bulkId: 'bulk-1', outcome: 'kept', result: { outcome: 'kept' } }),
    ]);
    expect(file.billing).toMatchObject({ customerId: 'cus_export', status: 'active' });
    expect(file.trialUsage.unsubscribesUsed).toBe(0);
    // The export being downloaded is already in its own audit section.
    expect(file.accountAudit).toEqual([{ action: 'export-json', createdAt: expect.any(String) }]);

    // Another user's rows are not in it.
    for (const theirs of ['someone-else@yahoo.com', 'not-yours@elsewhere.example', 'Not yours', 'other-']) {
      expect(text).not.toContain(theirs);
    }

    // No secret appears anywhere in the text, by the actual values.
    const sessions = await t.db.selectFrom('sessions').select('id').where('user_id', '=', u.userId).execute();
    const verifications = await t.db
      .selectFrom('email_verifications')
      .select('token_hash')
      .where('user_id', '=', u.userId)
      .execute();
    const cookie = /ig_session=([^;]+)/.exec(client.cookieHeader())?.[1];
    const secrets = [
      u.mailbox.secret,
      user.password_hash,
      u.password,
      cookie,
      await client.token(),
      'reset-token-hash-secret',
      'weekly-report-token-hash-secret',
      ...sessions.map((s) => s.id),
      ...verifications.map((v) => v.token_hash),
    ];
    expect(u.mailbox.secret).toBeTruthy();
    expect(user.password_hash).toBeTruthy();
    expect(sessions.length).toBeGreaterThan(0);
    expect(cookie).toBeTruthy();
    for (const secret of secrets) if (secret) expect(text).not.toContain(secret);
    const syncState = (
      await t.db
        .selectFrom('mailboxes')
        .select('sync_state')
        .where('id', '=', u.mailbox.id)
        .executeTakeFirstOrThrow()
    ).sync_state;
    if (syncState) expect(text).not.toContain(syncState);
    expect(text).not.toMatch(/password_?hash|"secret"|sync_?state/i);

    // Completeness: every table holding a user's rows, read from the live database, has its section or is
    // left out on purpose above.
    const tables = await liveTables(t.db, dialect);
    const owning = usersTables(tables);
    expect(owning).toEqual(
      expect.arrayContaining(['account_audit', 'messages', 'bulk_items', 'trashed_messages']),
    );
    for (const table of owning) {
      if (table in LEFT_OUT) continue;
      expect(Object.keys(file), `the export has no section for table ${table}`).toContain(
        SECTION_OF[table] ?? camel(table),
      );
    }
    // Every table of the database is accounted for: a user's (exported or left out) or no user's.
    for (const table of tables.keys()) {
      expect(
        owning.includes(table) || NOT_A_USERS.includes(table),
        `table ${table} is not accounted for`,
      ).toBe(true);
    }
  });

  it('downloads the subscription list as CSV, formulas neutralised, and audits every export', async () => {
    const u = await userWithEverything();
    const { t, client } = u;
    const formula = '=HYPERLINK("https://evil.example/x","Click, me")';
    await t.db.updateTable('senders').set({ sender_name: formula }).where('id', '=', u.dealsId).execute();
    await t.db
      .updateTable('senders')
      .set({ category: 'unsubscribed', unsubscribed_at: Date.UTC(2026, 10, 21) })
      .where('id', '=', u.dealsId)
      .execute();

    const res = await client.get('/export.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="inbox-genie-subscriptions-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(EXPORT_CSV_COLUMNS.join(','));
    expect(lines.at(-1)).toBe('');
    // Subscriptions only (the personal sender is not one), the other user's not at all. Both messages are
    // known unread (IMAP \Seen): a read rate of 0, where an unknown one is an empty cell.
    expect(lines.slice(1, -1)).toEqual([
      `"'=HYPERLINK(""https://evil.example/x"",""Click, me"")",deals@shop.example,${u.email},unsubscribed,2,` +
        `${daysAgo(1).toISOString()},0.7,0,2026-11-21T00:00:00.000Z,mailto`,
    ]);

    await client.get('/export');
    const rows = await t.db
      .selectFrom('account_audit')
      .select(['action', 'user_id'])
      .where('user_id', '=', u.userId)
      .orderBy('created_at')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['export-csv', 'export-json']);
    const file = dataExportSchema.parse((await client.get('/export')).json());
    expect(file.accountAudit.map((a) => a.action)).toEqual(['export-csv', 'export-json', 'export-json']);

    // The audit rows go with the account.
    expect((await client.delete('/delete-account')).statusCode).toBe(200);
    const left = await t.db
      .selectFrom('account_audit')
      .select('id')
      .where('user_id', '=', u.userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('reads tables larger than a page whole, each row once', async () => {
    const t: TestApp = await createTestApp(dialect);
    open.push(t);
    const client = new Client(t.app);
    expect(
      (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
    ).toBe(200);
    const { id: userId } = await t.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const now = Date.now();
    await t.db
      .insertInto('mailboxes')
      .values({ id: 'mb', user_id: userId, email: 'me@yahoo.com', provider: 'yahoo', created_at: now })
      .execute();
    // More than two pages of senders and of message references (the repository reads 1000 rows a page).
    await seedSenders(
      t.db,
      Array.from({ length: 2100 }, (_, i) => ({
        id: `s${String(i).padStart(5, '0')}`,
        userId,
        mailboxId: 'mb',
        address: `list${i}@news.example`,
        subscription: i % 2 === 1,
        createdAt: now,
      })),
    );
    const messages = Array.from({ length: 2500 }, (_, i) => ({
      mailbox_id: 'mb',
      provider_id: `INBOX/1/${i}`,
      sender_id: 's00000',
      folder: 'INBOX',
      subject: `Issue ${i}`,
      date: now,
      seen: null,
    }));
    for (let i = 0; i < messages.length; i += 300) {
      await t.db
        .insertInto('messages')
        .values(messages.slice(i, i + 300))
        .execute();
    }

    const file = dataExportSchema.parse((await client.get('/export')).json());
    expect(new Set(file.senders.map((s) => s.id)).size).toBe(2100);
    expect(file.senders).toHaveLength(2100);
    expect(new Set(file.messages.map((m) => m.id)).size).toBe(2500);
    expect(file.messages).toHaveLength(2500);
    const csv = (await client.get('/export.csv')).body.split('\r\n');
    expect(csv).toHaveLength(1 + 1050 + 1);
  });

  it('answers 403 signed out and 429 past the exports’ own limit', async () => {
    const t: TestApp = await createTestApp(dialect);
    open.push(t);
    const visitor = new Client(t.app);
    expect((await visitor.get('/export')).statusCode).toBe(403);
    expect((await visitor.get('/export.csv')).statusCode).toBe(403);

    const client = new Client(t.app);
    expect(
      (await client.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' })).statusCode,
    ).toBe(200);
    // No HEAD twin: a HEAD would run the export, audit it and spend the budget.
    expect((await client.request({ method: 'HEAD', url: '/export' })).statusCode).not.toBe(200);
    // One budget over both downloads.
    for (let i = 0; i < EXPORT_RATE_LIMIT.max; i++) {
      expect((await client.get(i % 2 ? '/export.csv' : '/export')).statusCode).toBe(200);
    }
    const refused = await client.get('/export');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await client.get('/export.csv')).statusCode).toBe(429);
    // Refused downloads are not audited.
    const audited = await t.db.selectFrom('account_audit').select('id').execute();
    expect(audited).toHaveLength(EXPORT_RATE_LIMIT.max);
    // Another user has a budget of their own.
    const other = new Client(t.app);
    await other.post('/auth/signup', { email: uniqueEmail(), password: 'long enough' });
    expect((await other.get('/export')).statusCode).toBe(200);
  });
});
