import type { Db } from '#server/db/index.js';

// SQL of settings: the user's choices, stored on the user row.

export interface SettingsRow {
  alert_manual_unsubscribe: number;
  alert_after_unsubscribe: number;
  auto_block_still_sending: number;
}

export function createSettingsRepository(db: Db) {
  return {
    /** The user's settings; undefined when the user is gone (deleted meanwhile). */
    async find(userId: string): Promise<SettingsRow | undefined> {
      return db
        .selectFrom('users')
        .select(['alert_manual_unsubscribe', 'alert_after_unsubscribe', 'auto_block_still_sending'])
        .where('id', '=', userId)
        .executeTakeFirst();
    },

    /** Columns left out keep their stored value. */
    async update(userId: string, settings: Partial<SettingsRow>): Promise<void> {
      await db.updateTable('users').set(settings).where('id', '=', userId).execute();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
