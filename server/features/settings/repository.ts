import type { Settings } from '#contract/api.js';
import type { Db } from '#server/db/index.js';

// SQL of settings: the user's choices, stored on the user row (0/1 columns, booleans here).

/** The user's settings as the product reads them (the contract's shape). */
export type UserSettings = Settings;

export function createSettingsRepository(db: Db) {
  return {
    /** The user's settings; undefined when the user is gone (deleted meanwhile). */
    async find(userId: string): Promise<UserSettings | undefined> {
      const row = await db
        .selectFrom('users')
        .select([
          'alert_manual_unsubscribe',
          'alert_after_unsubscribe',
          'auto_block_still_sending',
          'weekly_report',
        ])
        .where('id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          alertManualUnsubscribe: row.alert_manual_unsubscribe === 1,
          alertAfterUnsubscribe: row.alert_after_unsubscribe === 1,
          autoBlockStillSending: row.auto_block_still_sending === 1,
          weeklyReport: Number(row.weekly_report) === 1,
        }
      );
    },

    /** Settings left out keep their stored value. */
    async update(userId: string, settings: Partial<UserSettings>): Promise<void> {
      const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
      await db
        .updateTable('users')
        .set({
          alert_manual_unsubscribe: flag(settings.alertManualUnsubscribe),
          alert_after_unsubscribe: flag(settings.alertAfterUnsubscribe),
          auto_block_still_sending: flag(settings.autoBlockStillSending),
          weekly_report: flag(settings.weeklyReport),
        })
        .where('id', '=', userId)
        .execute();
    },
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
