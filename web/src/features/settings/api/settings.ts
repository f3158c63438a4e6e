// The user's settings (GET /get-settings, PUT /update-settings) in the query cache, shared by the
// Settings screen and the unsubscribe flow (whose dialogs follow the two alert switches).
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Settings, settingsSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { ALERTS } from '#contract/validation.js';
import { api, failureText, isStatus } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** docs/product.md §3: both alerts default to on, also when the settings cannot be fetched. */
export const DEFAULT_SETTINGS: Settings = {
  alertManualUnsubscribe: true,
  alertAfterUnsubscribe: true,
  autoBlockStillSending: false,
  weeklyReport: false,
};

export const getSettings = () => api.get(API.getSettings, settingsSchema);
export const updateSettings = (settings: Settings) => api.send('PUT', API.updateSettings, settings);

const SETTINGS_KEY = [...USER_KEY, 'settings'] as const;

const settingsQuery = {
  queryKey: SETTINGS_KEY,
  queryFn: getSettings,
  meta: { errorMessage: ALERTS.fetchSettingsFailed },
};

/** The settings; null while loading, the defaults when the fetch failed. */
export function useSettings(): Settings | null {
  const query = useQuery(settingsQuery);
  return query.data ?? (query.isError ? DEFAULT_SETTINGS : null);
}

/**
 * The Settings screen's view: the settings (null while loading or after a failure) and whether the
 * fetch failed, for an error with Retry instead of switches that would show the defaults as if saved.
 */
export function useSettingsScreen(): { settings: Settings | null; failed: boolean; retry: () => void } {
  const query = useQuery(settingsQuery);
  return {
    settings: query.data ?? null,
    failed: query.isError && query.data === undefined,
    retry: () => void query.refetch(),
  };
}

/** The settings now: the cached answer, or the one under way; the defaults when it failed. */
export async function currentSettings(queryClient: QueryClient): Promise<Settings> {
  try {
    return await queryClient.ensureQueryData(settingsQuery);
  } catch {
    return DEFAULT_SETTINGS;
  }
}

/**
 * Saves the settings (all fields sent). The screen shows the new values at once; a failed save puts the
 * previous ones back and hands `onFailed` why (the spec's lead and the server's reason) and a Retry (the same
 * save again): the screen shows them where it shows failures (the Settings screen above its switches, the
 * subscription screen in an error note).
 */
export function useUpdateSettings(onFailed: (text: string, retry: () => void, error: unknown) => void) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (next: Settings) => updateSettings(next),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: SETTINGS_KEY });
      const previous = queryClient.getQueryData<Settings>(SETTINGS_KEY);
      queryClient.setQueryData(SETTINGS_KEY, next);
      return { previous };
    },
    onError: (error, next, context) => {
      // Before any answer (the fetch failed) the screen showed the defaults: back to those.
      queryClient.setQueryData(SETTINGS_KEY, context?.previous ?? DEFAULT_SETTINGS);
      console.warn(ALERTS.updateSettingsFailed, error);
      // 403 and 402 are the query client's (sign-in, pricing).
      if (isStatus(error, 403) || isStatus(error, 402)) return;
      onFailed(failureText(ALERTS.updateSettingsFailed, error), () => mutation.mutate(next), error);
    },
  });
  return mutation;
}
