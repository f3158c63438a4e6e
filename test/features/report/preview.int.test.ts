import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { reportedWeek, weekOf } from '#server/features/report/week.js';
import { withTestApp } from '#test/fixtures/app.js';
import { Client, DIALECTS, type TestApp, uniqueEmail } from '#test/helpers/app.js';
import { seedSender } from '#test/helpers/seed.js';

// GET /report/preview (docs/decisions/102-settings-that-say-what-they-do.md): Settings shows the signed-in
// user's weekly report as it would be sent now, and when reports go out. Nothing is mailed or claimed.

async function signedUp(t: TestApp) {
  const client = new Client(t.app);
  const email = uniqueEmail('preview');
  expect((await client.post('/auth/signup', { email, password: 'long enough' })).statusCode).toBe(200);
  const { id } = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { client, userId: id };
}

/** A mailbox of the user and one subscription found in the middle of the reported week. */
async function foundLastWeek(t: TestApp, userId: string, name: string, address: string) {
  const week = reportedWeek(Date.now());
  const mailboxId = `mbx-${userId}`;
  await t.db
    .insertInto('mailboxes')
    .values({
      id: mailboxId,
      user_id: userId,
      email: `box-${userId}@example.com`,
      provider: 'yahoo',
      created_at: week.start - 86_400_000,
    })
    .execute();
  await seedSender(t.db, {
    userId,
    mailboxId,
    address,
    name,
    messageCount: 3,
    createdAt: week.start + 3 * 86_400_000,
  });
}

/** The subjects of the weekly reports in the outbox (sign-up's own mails land there too, later). */
async function reportsMailed(t: TestApp): Promise<string[]> {
  const dir = path.join(t.dataDir, 'outbox');
  const subjects: string[] = [];
  for (const name of await readdir(dir).catch(() => [])) {
    const { subject } = await simpleParser(await readFile(path.join(dir, name)));
    if (subject?.startsWith('Your Inbox Genie week')) subjects.push(subject);
  }
  return subjects;
}

describe.each(DIALECTS)('the weekly report preview on %s', (dialect) => {
  const t = withTestApp(dialect);

  it('answers the user’s own report of last week and its schedule, and mails and stores nothing', async () => {
    const { client, userId } = await signedUp(t);
    await foundLastWeek(t, userId, 'Shop <b>Deals</b> & "Offers"', 'deals@shop.example');
    const other = await signedUp(t);
    await foundLastWeek(t, other.userId, 'Someone Else’s Paper', 'paper@else.example');

    const preview = await client.call('GET /report/preview');
    const now = Date.now();
    const week = reportedWeek(now);
    expect(preview.week).toBe(week.name);
    expect(preview.weekStart).toBe(new Date(week.start).toISOString());
    expect(preview.weekEnd).toBe(new Date(week.end).toISOString());
    // Reports go out from Monday 00:00 UTC: the next one at the end of this week.
    expect(preview.nextSendAt).toBe(new Date(weekOf(now).end).toISOString());
    expect(new Date(preview.nextSendAt).getUTCDay()).toBe(1);
    expect(preview.nextSendAt).toMatch(/T00:00:00\.000Z$/);
    expect(preview.proven).toBe(false);
    expect(preview.subject).toMatch(/^Your Inbox Genie week, /);
    // The sender's name is text in both parts, escaped in the HTML; another user's sender is not there.
    expect(preview.text).toContain('Shop <b>Deals</b> & "Offers"');
    expect(preview.html).toContain('Shop &lt;b&gt;Deals&lt;/b&gt; &amp; &quot;Offers&quot;');
    expect(preview.html).not.toContain('<b>Deals</b>');
    expect(preview.text).not.toContain('Someone Else');
    expect(preview.html).not.toContain('Someone Else');
    // No unsubscribe token exists for a preview: its link leads to Settings.
    expect(preview.html).not.toContain('/report/unsubscribe');
    expect(preview.text).toContain('/genie/settings');

    expect(await reportsMailed(t)).toEqual([]);
    expect(await t.db.selectFrom('weekly_reports').select('user_id').execute()).toEqual([]);
  });

  it('says when the address is confirmed, and refuses a visitor without a session', async () => {
    const { client, userId } = await signedUp(t);
    await t.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', userId).execute();
    expect((await client.call('GET /report/preview')).proven).toBe(true);
    expect((await new Client(t.app).get('/report/preview')).statusCode).toBe(403);
  });
});
