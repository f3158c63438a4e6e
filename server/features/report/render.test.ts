import { describe, expect, it } from 'vitest';
import { MONTH_MS, mailAvoided, type ReportContent, type ReportLinks } from './content.js';
import { renderReport } from './render.js';
import { weekOf } from './week.js';

// The weekly report's rendering and its estimate, without a database: what each part says for a given
// content, and that a sender's name cannot add markup to the HTML part.

const NOW = Date.UTC(2025, 10, 24, 6);
const links: ReportLinks = {
  subscriptions: 'https://genie.example/genie/subscriptions',
  unsubscribed: 'https://genie.example/genie/unsubscribed',
  rules: 'https://genie.example/genie/rules',
  settings: 'https://genie.example/genie/settings',
  unsubscribe: 'https://genie.example/report/unsubscribe?token=abc',
};

function content(overrides: Partial<ReportContent> = {}): ReportContent {
  return {
    week: weekOf(Date.UTC(2025, 10, 17)),
    newSubscriptions: { total: 0, listed: [] },
    moves: [],
    movedSenders: [],
    stillSending: { total: 0, listed: [] },
    avoided: { messages: 0, senders: 0 },
    ...overrides,
  };
}

describe('mail avoided', () => {
  it('is the pace before the action times the months since, less what came anyway', () => {
    const quiet = { unsubscribedAt: NOW - 3 * MONTH_MS, before: 9, since: 0 };
    expect(mailAvoided([quiet], NOW)).toEqual({ messages: 9, senders: 1 });
    // More mail came than the old pace predicts: none avoided from that sender, never negative.
    expect(mailAvoided([{ unsubscribedAt: NOW - MONTH_MS, before: 3, since: 5 }, quiet], NOW)).toEqual({
      messages: 9,
      senders: 2,
    });
    // Half a month since a sender of 6 a month: 3.
    expect(mailAvoided([{ unsubscribedAt: NOW - MONTH_MS / 2, before: 18, since: 0 }], NOW)).toEqual({
      messages: 3,
      senders: 1,
    });
    expect(mailAvoided([], NOW)).toEqual({ messages: 0, senders: 0 });
  });
});

describe('rendering', () => {
  it('says a quiet week is quiet, in both parts, with the way out', () => {
    const mail = renderReport(content(), links);
    expect(mail.subject).toBe('Your Inbox Genie week, 17 Nov – 23 Nov 2025: a quiet week');
    expect(mail.text).toContain('New subscriptions found: 0');
    expect(mail.text).toContain('Nothing to move this week.');
    expect(mail.text).toContain('None: every sender you left has stopped.');
    expect(mail.text).toContain('Nothing yet: no sender is unsubscribed or blocked.');
    expect(mail.text).not.toContain('This is an estimate');
    expect(mail.text).toContain(`Stop these reports: ${links.unsubscribe}`);
    expect(mail.html).toContain(`href="${links.unsubscribe}"`);
    expect(mail.html).toContain(`href="${links.settings}"`);
  });

  it('escapes what senders write and counts the senders it does not list', () => {
    const evil = { name: '<img src=x onerror=alert(1)>', address: 'x@evil.example' };
    const mail = renderReport(
      content({
        newSubscriptions: { total: 12, listed: [{ ...evil, category: 'uncategorized', messageCount: 1 }] },
        moves: [
          { cause: 'rule', destination: { kind: 'folder', path: '<b>Box</b>' }, messages: 2, senders: 1 },
        ],
        movedSenders: [{ ...evil, cause: 'rule', messages: 2 }],
        stillSending: {
          total: 1,
          listed: [{ ...evil, unsubscribedAt: NOW - 30 * 86_400_000, lastMessageAt: null }],
        },
        avoided: { messages: 1234, senders: 3 },
      }),
      links,
    );
    expect(mail.subject).toBe(
      'Your Inbox Genie week, 17 Nov – 23 Nov 2025: 12 new subscriptions, 2 messages sorted, 1 still sending',
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Box');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &lt;x@evil.example&gt;');
    expect(mail.text).toContain('- <img src=x onerror=alert(1)> <x@evil.example> (1 message)');
    expect(mail.text).toContain('- and 11 more');
    expect(mail.html).toContain('and 11 more');
    expect(mail.text).toContain('Sender rules moved 2 messages: 2 filed into “<b>Box</b>”.');
    expect(mail.text).toContain('About 1,234 messages from the 3 senders you unsubscribed from or blocked.');
    expect(mail.text).toContain('This is an estimate');
  });
});
