import { domainToASCII } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { getDomain } from 'tldts';

// Brands (docs/decisions/082-brands.md): each sender's List-Id and its brand, written by the scans; the
// grouped list reads a range of the new index per category. Existing rows get their address's brand (no
// List-Id was kept before); the next scan or check that sees a List-Id moves the row to the list's brand.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('senders').addColumn('list_id', 'text').execute();
  await db.schema
    .alterTable('senders')
    .addColumn('brand', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; address: string }>`
      select id, address from senders where id > ${after} order by id limit 1000`.execute(db);
    if (rows.length === 0) break;
    for (const r of rows) {
      await sql`update senders set brand = ${addressBrand(r.address)} where id = ${r.id}`.execute(db);
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
  await db.schema
    .createIndex('senders_brand')
    .on('senders')
    .columns(['user_id', 'is_subscription', 'category', 'brand'])
    .execute();
}

// The brand of an address as features/subscriptions/brand.ts computed it when this migration shipped (no
// List-Id), frozen here: a migration that has run must do the same on every database, whatever the feature
// becomes later (docs/decisions/071-migrations-one-per-file.md).
const MAX_HOST = 253;

function addressBrand(address: string): string {
  const at = address.lastIndexOf('@');
  const host = at === -1 ? address : address.slice(at + 1);
  return registrableDomain(host) ?? host.toLowerCase().slice(0, MAX_HOST);
}

function registrableDomain(host: string): string | null {
  if (host.length === 0 || host.length > MAX_HOST) return null;
  const ascii = domainToASCII(host.toLowerCase().replace(/\.$/, ''));
  if (ascii === '') return null;
  return getDomain(ascii, { allowPrivateDomains: true, validateHostname: true }) ?? null;
}
