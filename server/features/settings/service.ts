import type { Settings } from '../../../contract/api.js';
import type { Db } from '../../db/index.js';

// The two alert settings of SPEC §3 (both default true), stored on the user row.

export function createSettingsService(db: Db) {
  return {
    async get(userId: string): Promise<Settings> {
      const row = await db
        .selectFrom('users')
        .select(['alert_manual_unsubscribe', 'alert_after_unsubscribe'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return {
        alertManualUnsubscribe: row.alert_manual_unsubscribe === 1,
        alertAfterUnsubscribe: row.alert_after_unsubscribe === 1,
      };
    },

    async update(userId: string, settings: Settings): Promise<Settings> {
      await db
        .updateTable('users')
        .set({
          alert_manual_unsubscribe: settings.alertManualUnsubscribe ? 1 : 0,
          alert_after_unsubscribe: settings.alertAfterUnsubscribe ? 1 : 0,
        })
        .where('id', '=', userId)
        .execute();
      return settings;
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
