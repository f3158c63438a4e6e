import type { Settings, SettingsUpdate } from '#contract/api.js';
import type { Repositories } from '../repositories.js';

// The two alert settings of docs/product.md §3 (both default true) and the auto-block of senders still
// sending after an unsubscribe (issue 4, default false), stored on the user row.

export function createSettingsService(repos: Pick<Repositories, 'settings'>) {
  const repo = repos.settings;

  return {
    async get(userId: string): Promise<Settings> {
      const row = await repo.find(userId);
      // Only signed-in users get here; a user deleted meanwhile is a server error, as any missing row.
      if (!row) throw new Error(`No user ${userId}`);
      return {
        alertManualUnsubscribe: row.alert_manual_unsubscribe === 1,
        alertAfterUnsubscribe: row.alert_after_unsubscribe === 1,
        autoBlockStillSending: row.auto_block_still_sending === 1,
      };
    },

    /** `autoBlockStillSending` may be left out (older clients): it keeps its stored value. */
    async update(userId: string, settings: SettingsUpdate): Promise<Settings> {
      await repo.update(userId, {
        alert_manual_unsubscribe: settings.alertManualUnsubscribe ? 1 : 0,
        alert_after_unsubscribe: settings.alertAfterUnsubscribe ? 1 : 0,
        ...(settings.autoBlockStillSending === undefined
          ? {}
          : { auto_block_still_sending: settings.autoBlockStillSending ? 1 : 0 }),
      });
      return this.get(userId);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
