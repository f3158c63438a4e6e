// The fleet's mail (bench/fleet.ts): what each mailbox holds, decided from its index alone, and the maildirs
// written on disk for Dovecot. Every message file is written once and hard-linked into each maildir that
// holds it, so a thousand mailboxes of up to 2,000 messages take seconds to lay out.
import { chownSync, existsSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dkimSign } from '#test/helpers/dkim.js';
import { daysAgo, rawMessage } from '#test/helpers/mail.js';
import { NOBODY } from '#test/helpers/unpacked-server.js';
import { random } from '../random.js';

/** Senders the fleet's mail comes from; each mailbox hears from a few dozen to a few hundred of them. */
const SENDERS = 2_000;
export const FOLDERS = ['INBOX', 'Newsletters', 'Archive'] as const;

/** 7 of 8 senders are newsletters; the rest write personal mail (as bench/scan.ts). */
const isNewsletter = (sender: number) => sender % 8 !== 0;
export const addressOf = (sender: number) => `sender${sender}@domain${sender}.example`;

/**
 * Issue `issue` of a sender (its `issue`-th message, the same for every mailbox that receives it), as
 * bench/scan.ts's `message()`: newsletters carry List-Unsubscribe, one-click and a DKIM-Signature,
 * personal mail does not. Issues are a few days apart. The signature is computed once per sender (on its
 * first issue) and carried by all of them: the same bytes to fetch and parse, without an RSA signature
 * per file (5 ms each here); a scan never verifies it (only an unsubscribe does).
 */
function message(sender: number, issue: number, signature: (sender: number) => string): string {
  const raw = rawMessage({
    from: `Sender ${sender} <${addressOf(sender)}>`,
    subject: `Message ${issue} from sender ${sender}`,
    date: daysAgo(Math.max(0, 700 - issue * 3 - (sender % 3))),
    ...(isNewsletter(sender)
      ? {
          listUnsubscribe: `<https://domain${sender}.example/unsub?u=${issue}>, <mailto:leave-${sender}@domain${sender}.example>`,
          listUnsubscribePost: 'List-Unsubscribe=One-Click',
          dkim: false,
        }
      : {}),
  });
  return isNewsletter(sender) ? signature(sender) + raw : raw;
}

/** Where a sender's issue sits in every mailbox: newsletters a quarter in a folder of their own, personal mail a third archived. */
const folderOf = (sender: number, issue: number): (typeof FOLDERS)[number] =>
  isNewsletter(sender) ? (issue % 4 === 0 ? 'Newsletters' : 'INBOX') : issue % 3 === 0 ? 'Archive' : 'INBOX';

export interface MailboxPlan {
  index: number;
  /** The Dovecot user, and the mailbox's address in the product. */
  email: string;
  size: number;
  /** Messages by sender: issues 0…count-1 of each. */
  senders: Map<number, number>;
}

/**
 * Mailbox `index`: min…max messages (uniform), from 20 + size/15 senders picked with a skew towards the
 * popular ones (low numbers: the big brands everybody receives), their shares falling with their rank
 * (the first sender of a mailbox sends it about ten times the mail of its twentieth).
 */
export function planMailbox(index: number, min: number, max: number): MailboxPlan {
  const rnd = random(1_000 + index);
  const size = min + Math.floor(rnd() * (max - min + 1));
  const wanted = Math.min(SENDERS, 20 + Math.floor(size / 15));
  const picked: number[] = [];
  const seen = new Set<number>();
  while (picked.length < wanted) {
    const sender = Math.floor(SENDERS * rnd() ** 2);
    if (!seen.has(sender)) {
      seen.add(sender);
      picked.push(sender);
    }
  }
  // One message each, the rest by weight 1/rank^0.8 (largest remainders), so the counts add up to `size`.
  const weights = picked.map((_, rank) => 1 / (rank + 1) ** 0.8);
  const total = weights.reduce((a, b) => a + b, 0);
  const spare = size - picked.length;
  const shares = weights.map((w) => (spare * w) / total);
  const counts = shares.map((s) => 1 + Math.floor(s));
  let left = size - counts.reduce((a, b) => a + b, 0);
  const byRemainder = shares.map((s, i) => [s - Math.floor(s), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of byRemainder) {
    if (left-- <= 0) break;
    counts[i]!++;
  }
  return {
    index,
    email: `fleet${index}@yahoo.com`,
    size,
    senders: new Map(picked.map((sender, i) => [sender, counts[i]!])),
  };
}

/**
 * New mail for a mailbox that gets some: 1–20 messages, the next issues of senders it already hears
 * from, and one in five from a sender new to it. Returns the count by sender.
 */
export function planNewMail(plan: MailboxPlan): Map<number, number> {
  const rnd = random(9_000_000 + plan.index);
  const n = 1 + Math.floor(rnd() * 20);
  const known = [...plan.senders.keys()];
  const mail = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    let sender: number;
    if (i % 5 === 4) {
      do sender = Math.floor(SENDERS * rnd());
      while (plan.senders.has(sender));
    } else {
      sender = known[Math.floor(known.length * rnd() ** 2)]!;
    }
    mail.set(sender, (mail.get(sender) ?? 0) + 1);
  }
  return mail;
}

/** Maildir++ folder directory, as test/helpers/dovecot.ts lays it out: INBOX is the root, "A" is ".A". */
function folderDir(home: string, folder: string): string {
  return folder === 'INBOX' ? path.join(home, 'Maildir') : path.join(home, 'Maildir', `.${folder}`);
}

/**
 * Writes the fleet's maildirs under Dovecot's mail root (`<base>/mail/<user>`, test/helpers/dovecot.ts),
 * owned by Dovecot's user: each sender's issue once in `<base>/pool`, hard-linked into the folders that
 * hold it (one inode, so the page cache holds each message once). Counts the files written and links made.
 */
export class MaildirWriter {
  private readonly pool: string;
  private readonly written = new Set<string>();
  private readonly signatures = new Map<number, string>();
  files = 0;
  links = 0;

  constructor(private readonly base: string) {
    this.pool = path.join(base, 'pool');
    mkdirSync(this.pool, { recursive: true });
  }

  /** A sender's DKIM-Signature field (of its first issue), with its line break. */
  private signature = (sender: number): string => {
    let field = this.signatures.get(sender);
    if (field === undefined) {
      const signed = dkimSign(message(sender, 0, () => ''));
      field = signed.slice(0, signed.indexOf('\r\n') + 2);
      this.signatures.set(sender, field);
    }
    return field;
  };

  /** The pool's file of an issue, written (and given to Dovecot's user) the first time it is asked for. */
  private file(sender: number, issue: number): string {
    const file = path.join(this.pool, `${sender}-${issue}.eml`);
    if (!this.written.has(file)) {
      this.written.add(file);
      writeFileSync(file, message(sender, issue, this.signature));
      chownSync(file, NOBODY, NOBODY);
      this.files++;
    }
    return file;
  }

  private home(email: string): string {
    const home = path.join(this.base, 'mail', email);
    if (!existsSync(home)) {
      const dirs = FOLDERS.flatMap((f) =>
        ['', 'cur', 'new', 'tmp'].map((sub) => path.join(folderDir(home, f), sub)),
      );
      for (const dir of [home, ...dirs]) {
        mkdirSync(dir, { recursive: true });
        chownSync(dir, NOBODY, NOBODY);
      }
      for (const folder of FOLDERS) {
        if (folder !== 'INBOX') writeFileSync(path.join(folderDir(home, folder), 'maildirfolder'), '');
      }
    }
    return home;
  }

  /** The mailbox's mail as already there: in `cur/`, read (`:2,S`) but one in five. */
  layOut(plan: MailboxPlan): void {
    const home = this.home(plan.email);
    for (const [sender, count] of plan.senders) {
      for (let issue = 0; issue < count; issue++) {
        const dir = folderDir(home, folderOf(sender, issue));
        const flags = (plan.index + sender + issue) % 5 === 0 ? '' : 'S';
        linkSync(this.file(sender, issue), path.join(dir, 'cur', `${sender}.${issue}.fleet:2,${flags}`));
        this.links++;
      }
    }
  }

  /** New mail, as a delivery leaves it: in `new/`, unread; each sender's issues after the ones it holds. */
  deliver(plan: MailboxPlan, mail: Map<number, number>): void {
    const home = this.home(plan.email);
    for (const [sender, count] of mail) {
      const from = plan.senders.get(sender) ?? 0;
      for (let issue = from; issue < from + count; issue++) {
        const dir = folderDir(home, folderOf(sender, issue));
        linkSync(this.file(sender, issue), path.join(dir, 'new', `${sender}.${issue}.fleet`));
        this.links++;
      }
    }
  }
}
