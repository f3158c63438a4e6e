import type { Settings, SettingsUpdate } from '#contract/api.js';
import type { Repositories } from '../repositories.js';

// The two alert settings of docs/product.md §3 (both default true), the auto-block of senders still
// sending after an unsubscribe (default false) and the weekly report by mail (default false,
// features/report), stored on the user row.

export function createSettingsService(repos: Pick<Repositories, 'settings'>) {
  const repo = repos.settings;

  async function get(userId: string): Promise<Settings> {
    const settings = await repo.find(userId);
    // Only signed-in users get here; a user deleted meanwhile is a server error, as any missing row.
    if (!settings) throw new Error(`No user ${userId}`);
    return settings;
  }

  return {
    get,

    /** `autoBlockStillSending` and `weeklyReport` may be left out (the spec's body has only the two alerts): they keep their stored values. */
    async update(userId: string, settings: SettingsUpdate): Promise<Settings> {
      await repo.update(userId, settings);
      return get(userId);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
