import { describe, expect, it } from 'vitest';
import type { SettingsUpdate, UnsubscribeResult } from '#contract/api.js';
import {
  afterOpen,
  DEFAULT_ALERT_SETTINGS,
  failureStep,
  linkDomain,
  nextUnsubscribeStep,
  openableLinks,
  withoutReminder,
} from './unsubscribe-flow';

function result(overrides: Partial<UnsubscribeResult> = {}): UnsubscribeResult {
  return {
    subscriptionId: 's1',
    method: 'manual',
    oneClickUnsubscribeSuccess: false,
    manualUnsubscribe: false,
    blockedAndTrashed: false,
    unsubscribeOptions: [],
    ...overrides,
  };
}

const settings = (alertManualUnsubscribe: boolean, alertAfterUnsubscribe: boolean): SettingsUpdate => ({
  alertManualUnsubscribe,
  alertAfterUnsubscribe,
});

const ALL_SETTINGS = [
  settings(true, true),
  settings(true, false),
  settings(false, true),
  settings(false, false),
];

const LINKS: [string, string] = ['https://news.example/unsub?u=1', 'https://news.example/prefs'];
const manual = result({ manualUnsubscribe: true, unsubscribeOptions: LINKS });

describe('nextUnsubscribeStep', () => {
  it.each(ALL_SETTINGS)('removes the item after a one-click success (%o)', (s) => {
    expect(nextUnsubscribeStep(result({ method: 'one-click', oneClickUnsubscribeSuccess: true }), s)).toEqual(
      {
        kind: 'remove',
      },
    );
  });

  it.each(ALL_SETTINGS)('removes the item when blocked and trashed (%o)', (s) => {
    expect(nextUnsubscribeStep(result({ method: 'block', blockedAndTrashed: true }), s)).toEqual({
      kind: 'remove',
    });
  });

  it.each(ALL_SETTINGS)('asks to re-authenticate when an authUrl comes back (%o)', (s) => {
    const answer = result({ authUrl: 'https://accounts.example/auth', manualUnsubscribe: true });
    expect(nextUnsubscribeStep(answer, s)).toEqual({
      kind: 'reauth',
      authUrl: 'https://accounts.example/auth',
    });
  });

  it('manual on, after on: the dialog without the links, then the confirmation', () => {
    expect(nextUnsubscribeStep(manual, settings(true, true))).toEqual({
      kind: 'manual-dialog',
      url: LINKS[0],
      options: LINKS,
      showOptions: false,
      next: 'confirm',
    });
  });

  it('manual on, after off: the dialog listing the links, then the confirm call', () => {
    expect(nextUnsubscribeStep(manual, settings(true, false))).toEqual({
      kind: 'manual-dialog',
      url: LINKS[0],
      options: LINKS,
      showOptions: true,
      next: 'complete',
    });
  });

  it('manual off, after on: opens the first link at once, then the confirmation', () => {
    expect(nextUnsubscribeStep(manual, settings(false, true))).toEqual({
      kind: 'open',
      url: LINKS[0],
      next: 'confirm',
    });
  });

  it('both off: opens the first link and confirms at once', () => {
    expect(nextUnsubscribeStep(manual, settings(false, false))).toEqual({
      kind: 'open',
      url: LINKS[0],
      next: 'complete',
    });
  });

  it('the default settings show the dialog, then the confirmation', () => {
    expect(nextUnsubscribeStep(manual, DEFAULT_ALERT_SETTINGS)).toMatchObject({
      kind: 'manual-dialog',
      next: 'confirm',
    });
  });

  it.each(ALL_SETTINGS)('fails when a manual unsubscribe has no openable link (%o)', (s) => {
    expect(nextUnsubscribeStep(result({ manualUnsubscribe: true }), s)).toEqual({ kind: 'failed' });
    const unsafe = result({ manualUnsubscribe: true, unsubscribeOptions: ['javascript:alert(1)'] });
    expect(nextUnsubscribeStep(unsafe, s)).toEqual({ kind: 'failed' });
  });

  it('fails when nothing was done', () => {
    expect(nextUnsubscribeStep(result(), DEFAULT_ALERT_SETTINGS)).toEqual({ kind: 'failed' });
  });

  it('skips unsafe links and opens the first openable one', () => {
    const answer = result({ manualUnsubscribe: true, unsubscribeOptions: ['mailto:x@y.z', LINKS[1]] });
    expect(nextUnsubscribeStep(answer, settings(false, false))).toEqual({
      kind: 'open',
      url: LINKS[1],
      next: 'complete',
    });
  });

  it('copes with a missing options list', () => {
    const answer = { ...manual, unsubscribeOptions: undefined } as unknown as UnsubscribeResult;
    expect(nextUnsubscribeStep(answer, DEFAULT_ALERT_SETTINGS)).toEqual({ kind: 'failed' });
  });
});

describe('openableLinks', () => {
  it('keeps http and https links only', () => {
    expect(
      openableLinks(['http://a.example/', 'ftp://b.example/', 'not a url', 3, 'https://c.example/x']),
    ).toEqual(['http://a.example/', 'https://c.example/x']);
    expect(openableLinks(undefined)).toEqual([]);
  });
});

describe('afterOpen', () => {
  it('follows the after-unsubscribe alert', () => {
    expect(afterOpen(settings(false, true))).toBe('confirm');
    expect(afterOpen(settings(true, false))).toBe('complete');
  });
});

describe('withoutReminder', () => {
  it('turns off the matching alert only', () => {
    expect(withoutReminder(settings(true, true), 'manual')).toEqual(settings(false, true));
    expect(withoutReminder(settings(true, true), 'after')).toEqual(settings(true, false));
    expect(withoutReminder(settings(false, true), 'after')).toEqual(settings(false, false));
  });
});

describe('linkDomain', () => {
  it('names the host the browser will open, whatever the sender wrote around it', () => {
    expect(linkDomain('https://www.list-manage.com/unsubscribe?u=1')).toBe('list-manage.com');
    expect(linkDomain('http://news.example:8080/out')).toBe('news.example');
    // The part before @ is a user name, not the host.
    expect(linkDomain('https://bank.example@evil.example/leave')).toBe('evil.example');
    // An international name in its xn-- form, which cannot look like another.
    expect(linkDomain('https://pаypal.example/u')).toBe('xn--pypal-4ve.example');
    expect(linkDomain('HTTPS://NEWS.EXAMPLE/u')).toBe('news.example');
    for (const bad of ['javascript:alert(1)', 'mailto:a@b.example', 'not a url', ''])
      expect(linkDomain(bad)).toBe('');
  });
});

describe('failureStep', () => {
  it('maps thrown calls and statuses to what the screen does', () => {
    expect(failureStep(null, null)).toEqual({ kind: 'alert', alert: 'error' });
    expect(failureStep(401, 'https://accounts.example/auth')).toEqual({
      kind: 'redirect',
      url: 'https://accounts.example/auth',
    });
    expect(failureStep(401, null)).toEqual({ kind: 'alert', alert: 'failed' });
    // The trial's limit is said in the app (the plan dialog), not by a jump to the public /pricing page.
    expect(failureStep(402, null)).toEqual({ kind: 'plan' });
    expect(failureStep(403, null)).toEqual({ kind: 'navigate', to: 'signin' });
    expect(failureStep(429, null)).toEqual({ kind: 'alert', alert: 'rateLimited' });
    expect(failureStep(500, null)).toEqual({ kind: 'alert', alert: 'failed' });
  });
});
