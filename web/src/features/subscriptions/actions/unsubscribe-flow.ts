// The unsubscribe flow's decisions (docs/product.md §4 Unsubscribe flow, §8 By status), kept pure so that every
// result kind and every combination of the two alert settings can be tested without a browser.
import type { SettingsUpdate, UnsubscribeResult } from '#contract/api.js';
import { type GlobalNavigation, globalNavigation } from '../../../lib/query-client';

/** docs/product.md §3/§8: both alerts default to on, also when the settings cannot be fetched. */
export const DEFAULT_ALERT_SETTINGS: SettingsUpdate = {
  alertManualUnsubscribe: true,
  alertAfterUnsubscribe: true,
};

/** What follows opening the sender's page: the confirmation dialog, or the confirm call at once. */
export type AfterOpen = 'confirm' | 'complete';

export type UnsubscribeStep =
  /** One-click success or blocked and trashed: the item leaves the list. */
  | { kind: 'remove' }
  /** The Re-authentication Required dialog; Re-authenticate goes to `authUrl`. */
  | { kind: 'reauth'; authUrl: string }
  /** The Manual Unsubscription Required dialog; Open Link opens `url`, then `next`. */
  | { kind: 'manual-dialog'; url: string; options: string[]; showOptions: boolean; next: AfterOpen }
  /** Open `url` in a new tab at once, then `next`. */
  | { kind: 'open'; url: string; next: AfterOpen }
  /** Nothing usable came back: the 'Failed to process…' note, with Retry. */
  | { kind: 'failed' };

/** The links of a result that may be opened: http(s) only, never e.g. `javascript:`. */
export function openableLinks(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options.filter((option): option is string => {
    if (typeof option !== 'string') return false;
    try {
      const url = new URL(option);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  });
}

/**
 * The host a sender's link opens, as the dialogs name it: the URL parser's own reading (what the browser
 * will go to), so that `https://bank.example@evil.example/` names evil.example and an international name
 * shows in its xn-- form, which cannot pass for another. A leading "www." is dropped. Empty for anything
 * but an http(s) link the parser accepts (a sender wrote it).
 */
export function linkDomain(link: string): string {
  try {
    const url = new URL(link);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
    return url.hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** After the sender's page opened: ask whether it worked (after-alert on), or confirm at once. */
export function afterOpen(settings: SettingsUpdate): AfterOpen {
  return settings.alertAfterUnsubscribe ? 'confirm' : 'complete';
}

/** The next step of the flow for an answer of POST /unsubscribe and the user's alert settings. */
export function nextUnsubscribeStep(result: UnsubscribeResult, settings: SettingsUpdate): UnsubscribeStep {
  if (typeof result?.authUrl === 'string' && result.authUrl)
    return { kind: 'reauth', authUrl: result.authUrl };
  if (result?.oneClickUnsubscribeSuccess || result?.blockedAndTrashed) return { kind: 'remove' };
  const options = openableLinks(result?.unsubscribeOptions);
  if (!result?.manualUnsubscribe) return { kind: 'failed' };
  const next = afterOpen(settings);
  const [url] = options;
  if (!url) return { kind: 'failed' };
  if (settings.alertManualUnsubscribe) {
    // With the confirmation to follow, the dialog only asks; without it, it lists the links.
    return { kind: 'manual-dialog', url, options, showOptions: next === 'complete', next };
  }
  return { kind: 'open', url, next };
}

/** Which reminder a 'Don't remind me' tick turns off: the manual dialog's or the confirmation's. */
export type Reminder = 'manual' | 'after';

/** The settings to save when 'Don't remind me' was ticked: the matching alert off, the other as is. */
export function withoutReminder(settings: SettingsUpdate, reminder: Reminder): SettingsUpdate {
  return reminder === 'manual'
    ? { ...settings, alertManualUnsubscribe: false }
    : { ...settings, alertAfterUnsubscribe: false };
}

/** `alert`: the note's lead (docs/decisions/098-failures-say-why.md; no window.alert any more). */
export type FailureStep =
  | { kind: 'redirect'; url: string }
  /** A 402: the free trial's limit, said in the plan dialog with the server's reason (not /pricing). */
  | { kind: 'plan' }
  | { kind: 'navigate'; to: GlobalNavigation }
  | { kind: 'alert'; alert: 'rateLimited' | 'failed' | 'error' };

/**
 * What a failed call leads to (docs/product.md §8): `status` is the HTTP status of a non-OK answer, or null when
 * the call threw (network failure or a bug); `redirectUrl` is what a 401 carried.
 */
export function failureStep(status: number | null, redirectUrl: string | null): FailureStep {
  if (status === null) return { kind: 'alert', alert: 'error' };
  if (status === 401 && redirectUrl) return { kind: 'redirect', url: redirectUrl };
  if (status === 402) return { kind: 'plan' };
  // 403: the query client's rule, which already navigated (the screen only stops).
  const global = globalNavigation(status);
  if (global) return { kind: 'navigate', to: global };
  if (status === 429) return { kind: 'alert', alert: 'rateLimited' };
  return { kind: 'alert', alert: 'failed' };
}
