import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SenderRule } from '#contract/api.js';
import type { Db } from '#server/db/index.js';
import { RULE_COLUMNS, type RuleColumn } from '#server/features/organise/rule-repository.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, uniqueEmail } from '#test/helpers/app.js';
import { seedSender } from '#test/helpers/seed.js';

// One definition of a sender rule (server/features/organise/rule-repository.ts): every column of
// sender_rules is either a part of the rule, which the list, GET /sender-rules and the export all carry,
// or the rule's run state, named below. A new column forgotten in either place fails here, not in a
// user's export.

/** sender_rules' columns that are not what the user chose: keys, the provider's filter, run state. */
const RUN_STATE = [
  'sender_id',
  'mailbox_id',
  'provider_ref',
  'next_due_at',
  'tracked',
  'created_at',
  'updated_at',
];

/** A value for each rule column, none of them null (a new column fails to compile until it has one). */
const SAMPLE: { [C in RuleColumn]: NonNullable<unknown> } = {
  folder: 'Label_7',
  folder_name: 'Receipts',
  keep_newest: 5,
  expire_after_days: 30,
  expire_action: 'archive',
};
const RULE: Required<SenderRule> = {
  folder: 'Label_7',
  folderName: 'Receipts',
  keepNewest: 5,
  expireAfterDays: 30,
  expireAction: 'archive',
};

async function columnsOf(db: Db, dialect: string): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = 'sender_rules'`.execute(db)
      : await sql<{ name: string }>`select name from pragma_table_info('sender_rules')`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

describe.each(DIALECTS)("a sender rule's columns on %s", (dialect) => {
  const t = withTestApp(dialect);
  let client: Client;
  let senderId: string;

  beforeAll(async () => {
    client = new Client(t.app);
    const email = uniqueEmail('rule-columns');
    await client.call('POST /auth/signup', { body: { email, password: 'long enough' } });
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    await t.db
      .insertInto('mailboxes')
      .values({
        id: 'mb-rules',
        user_id: user.id,
        email: 'reader@yahoo.com',
        provider: 'yahoo',
        secret: null,
        created_at: now,
      })
      .execute();
    senderId = await seedSender(t.db, {
      userId: user.id,
      mailboxId: 'mb-rules',
      address: 'news@shop.example',
      messageCount: 3,
    });
    await t.db
      .insertInto('sender_rules')
      .values({
        ...SAMPLE,
        sender_id: senderId,
        mailbox_id: 'mb-rules',
        provider_ref: null,
        next_due_at: null,
        tracked: null,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  });

  it('are the rule parts or its run state, and nothing else', async () => {
    expect(await columnsOf(t.db, dialect)).toEqual([...RULE_COLUMNS, ...RUN_STATE].sort());
  });

  it('are all in the list, in GET /sender-rules and in the export', async () => {
    const list = await client.call('GET /get-unsubscribe-emails');
    expect(list.data.find((s) => s.id === senderId)?.rule).toEqual(RULE);
    const rules = await client.call('GET /sender-rules');
    expect(rules.data.map((r) => r.rule)).toEqual([RULE]);
    const file = await client.call('GET /export');
    expect(file.senderRules).toEqual([expect.objectContaining({ senderId, ...RULE })]);
  });
});
