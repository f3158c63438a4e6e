import { type Kysely, sql } from 'kysely';

/** The cap on a sender's display name when this migration was written (mail/headers/detect.ts MAX_NAME_LENGTH). */
const MAX_NAME_LENGTH = 256;

/** At most MAX_NAME_LENGTH UTF-16 units, never half of a surrogate pair (detect.ts capName as it was). */
function cut(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const last = name.charCodeAt(MAX_NAME_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_NAME_LENGTH - 1 : MAX_NAME_LENGTH;
  return name.slice(0, end).trimEnd();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Names are cut when a From is parsed; rows stored before that cap are cut once here, so no reader
  // has to. Both dialects count characters (code points), each at most two UTF-16 units: a name of
  // half the cap or fewer characters is within it.
  const { rows } = await sql<{ id: string; sender_name: string }>`
    select id, sender_name from senders where length(sender_name) > ${MAX_NAME_LENGTH / 2}
  `.execute(db);
  for (const row of rows) {
    const name = cut(row.sender_name);
    if (name !== row.sender_name) {
      await sql`update senders set sender_name = ${name} where id = ${row.id}`.execute(db);
    }
  }
}
