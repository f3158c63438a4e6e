import type { MailAvoided, ReportContent, ReportLinks } from './content.js';
import type { MoveGroup, ReportSender } from './repository.js';

// The weekly report as a mail: a subject, a text part and an HTML part saying the same things, every
// sender's name escaped (senders write their own names). Pure: the same content gives the same mail.

export interface RenderedReport {
  subject: string;
  text: string;
  html: string;
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayYear = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const count = new Intl.NumberFormat('en-GB');

const plural = (n: number, one: string, many = `${one}s`) => `${count.format(n)} ${n === 1 ? one : many}`;

/** "16–22 Nov 2026": the week's Monday to its Sunday. */
export function weekSpan(start: number, end: number): string {
  return `${day.format(start)} – ${dayYear.format(end - 1)}`;
}

const senderLabel = (s: ReportSender) =>
  s.name && s.name !== s.address ? `${s.name} <${s.address}>` : s.address;

function destinationText(group: MoveGroup): string {
  const d = group.destination;
  if (!d) return 'moved';
  if (d.kind === 'trash') return 'moved to the trash';
  if (d.kind === 'archive') return 'archived';
  return `filed into “${d.path}”`;
}

/** One sentence per cause: "Sender rules moved 12 messages from 2 senders: 8 filed into “News”, 4 archived." */
function moveSentences(moves: readonly MoveGroup[]): string[] {
  const sentences: string[] = [];
  for (const cause of ['rule', 'screener'] as const) {
    const groups = moves.filter((g) => g.cause === cause);
    if (groups.length === 0) continue;
    const messages = groups.reduce((n, g) => n + g.messages, 0);
    const parts = groups.map((g) => `${count.format(g.messages)} ${destinationText(g)}`).join(', ');
    sentences.push(
      cause === 'rule'
        ? `Sender rules moved ${plural(messages, 'message')}: ${parts}.`
        : `Hold new senders kept ${plural(messages, 'message')} of new senders out of your inbox: ${parts}.`,
    );
  }
  return sentences;
}

export function avoidedSentence(avoided: MailAvoided): string {
  if (avoided.senders === 0) return 'Nothing yet: no sender is unsubscribed or blocked.';
  return `About ${plural(avoided.messages, 'message')} from the ${plural(avoided.senders, 'sender')} you unsubscribed from or blocked.`;
}

export const AVOIDED_EXPLAINED =
  'This is an estimate: for each of those senders, how often it wrote in the 90 days before you ' +
  'unsubscribed or blocked it, times the months since, less the mail it sent anyway. A sender that would ' +
  'have written more, or less, is counted at its old pace.';

function subjectOf(c: ReportContent): string {
  const bits: string[] = [];
  if (c.newSubscriptions.total > 0) bits.push(plural(c.newSubscriptions.total, 'new subscription'));
  const moved = c.moves.reduce((n, g) => n + g.messages, 0);
  if (moved > 0) bits.push(`${plural(moved, 'message')} sorted`);
  if (c.stillSending.total > 0) bits.push(`${count.format(c.stillSending.total)} still sending`);
  const summary = bits.length > 0 ? bits.join(', ') : 'a quiet week';
  return `Your Inbox Genie week, ${weekSpan(c.week.start, c.week.end)}: ${summary}`;
}

function more(total: number, listed: number): string | null {
  return total > listed ? `and ${count.format(total - listed)} more` : null;
}

export function renderText(c: ReportContent, links: ReportLinks): string {
  const lines: string[] = [];
  const section = (title: string) => lines.push('', title, '-'.repeat(title.length));
  lines.push(`Your week in Inbox Genie: ${weekSpan(c.week.start, c.week.end)} (UTC)`);

  section(`New subscriptions found: ${count.format(c.newSubscriptions.total)}`);
  for (const s of c.newSubscriptions.listed)
    lines.push(`- ${senderLabel(s)} (${plural(s.messageCount, 'message')})`);
  const moreNew = more(c.newSubscriptions.total, c.newSubscriptions.listed.length);
  if (moreNew) lines.push(`- ${moreNew}`);
  if (c.newSubscriptions.total > 0) lines.push(`Review them: ${links.subscriptions}`);

  section('What your rules and Hold new senders did');
  const sentences = moveSentences(c.moves);
  if (sentences.length === 0) lines.push('Nothing to move this week.');
  lines.push(...sentences);
  for (const s of c.movedSenders) {
    lines.push(
      `- ${senderLabel(s)}: ${plural(s.messages, 'message')} (${s.cause === 'rule' ? 'rule' : 'held: new sender'})`,
    );
  }
  lines.push(`Your rules: ${links.rules}`);

  section(`Still sending after you unsubscribed: ${count.format(c.stillSending.total)}`);
  for (const s of c.stillSending.listed) {
    const last = s.lastMessageAt === null ? '' : `, last mail ${dayYear.format(s.lastMessageAt)}`;
    lines.push(`- ${senderLabel(s)} (unsubscribed ${dayYear.format(s.unsubscribedAt)}${last})`);
  }
  const moreStill = more(c.stillSending.total, c.stillSending.listed.length);
  if (moreStill) lines.push(`- ${moreStill}`);
  if (c.stillSending.total > 0) lines.push(`Block them in one click: ${links.unsubscribed}`);
  else lines.push('None: every sender you left has stopped.');

  section('Mail avoided since you joined');
  lines.push(avoidedSentence(c.avoided));
  if (c.avoided.senders > 0) lines.push(AVOIDED_EXPLAINED);

  lines.push(
    '',
    '--',
    `You get this report because you turned it on in Settings: ${links.settings}`,
    `Stop these reports: ${links.unsubscribe}`,
    '',
  );
  return lines.join('\n');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const link = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="color:#0d6efd">${escapeHtml(label)}</a>`;
const para = (html: string, style = '') =>
  `<p style="margin:0 0 12px${style ? `;${style}` : ''}">${html}</p>`;
const list = (items: string[]) =>
  items.length === 0
    ? ''
    : `<ul style="margin:0 0 12px;padding-left:20px">${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
const heading = (text: string) =>
  `<h2 style="font-size:17px;margin:24px 0 8px;color:#212529">${escapeHtml(text)}</h2>`;

export function renderHtml(c: ReportContent, links: ReportLinks): string {
  const parts: string[] = [];
  parts.push(
    `<h1 style="font-size:20px;margin:0 0 4px">Your week in Inbox Genie</h1>`,
    para(escapeHtml(`${weekSpan(c.week.start, c.week.end)} (UTC)`), 'color:#6c757d'),
  );

  parts.push(heading(`New subscriptions found: ${count.format(c.newSubscriptions.total)}`));
  const newItems = c.newSubscriptions.listed.map(
    (s) => `${escapeHtml(senderLabel(s))} (${escapeHtml(plural(s.messageCount, 'message'))})`,
  );
  const moreNew = more(c.newSubscriptions.total, c.newSubscriptions.listed.length);
  if (moreNew) newItems.push(escapeHtml(moreNew));
  parts.push(list(newItems));
  if (c.newSubscriptions.total > 0) parts.push(para(link(links.subscriptions, 'Review them')));

  parts.push(heading('What your rules and Hold new senders did'));
  const sentences = moveSentences(c.moves);
  if (sentences.length === 0) parts.push(para('Nothing to move this week.'));
  for (const s of sentences) parts.push(para(escapeHtml(s)));
  parts.push(
    list(
      c.movedSenders.map(
        (s) =>
          `${escapeHtml(senderLabel(s))}: ${escapeHtml(plural(s.messages, 'message'))} (${s.cause === 'rule' ? 'rule' : 'held: new sender'})`,
      ),
    ),
  );
  parts.push(para(link(links.rules, 'Your rules')));

  parts.push(heading(`Still sending after you unsubscribed: ${count.format(c.stillSending.total)}`));
  const stillItems = c.stillSending.listed.map((s) => {
    const last = s.lastMessageAt === null ? '' : `, last mail ${dayYear.format(s.lastMessageAt)}`;
    return escapeHtml(`${senderLabel(s)} (unsubscribed ${dayYear.format(s.unsubscribedAt)}${last})`);
  });
  const moreStill = more(c.stillSending.total, c.stillSending.listed.length);
  if (moreStill) stillItems.push(escapeHtml(moreStill));
  parts.push(list(stillItems));
  parts.push(
    c.stillSending.total > 0
      ? para(link(links.unsubscribed, 'Block them in one click'))
      : para('None: every sender you left has stopped.'),
  );

  parts.push(heading('Mail avoided since you joined'));
  parts.push(para(`<strong>${escapeHtml(avoidedSentence(c.avoided))}</strong>`));
  if (c.avoided.senders > 0) parts.push(para(escapeHtml(AVOIDED_EXPLAINED), 'font-size:13px;color:#6c757d'));

  parts.push(
    '<hr style="border:0;border-top:1px solid #dee2e6;margin:24px 0 12px">',
    para(
      `You get this report because you turned it on in ${link(links.settings, 'Settings')}. ` +
        link(links.unsubscribe, 'Stop these reports'),
      'font-size:13px;color:#6c757d',
    ),
  );
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subjectOf(c))}</title></head>`,
    '<body style="margin:0;padding:16px;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.5;color:#212529;background:#ffffff;overflow-wrap:break-word">',
    '<div style="max-width:600px;margin:0 auto">',
    ...parts,
    '</div></body></html>',
    '',
  ].join('\n');
}

export function renderReport(c: ReportContent, links: ReportLinks): RenderedReport {
  return { subject: subjectOf(c), text: renderText(c, links), html: renderHtml(c, links) };
}
