import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';

// Reads the mail the product wrote to DATA_DIR/outbox/ (integration and e2e tests alike).

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  replyTo: string | undefined;
}

/** Reads the .eml files the outbox mailer wrote, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [])).sort();
  const mails: OutboxMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(await readFile(path.join(dir, file)));
    mails.push({
      to: parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      replyTo: parsed.replyTo?.text,
    });
  }
  return mails;
}

export function resetTokenFrom(mail: OutboxMail): string {
  const match = /\/reset-password\/confirm\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match) throw new Error(`No reset link in mail: ${mail.text}`);
  return decodeURIComponent(match[1]!);
}

/** A password-reset mail (an address's outbox also holds the link that confirms it at sign-up). */
export function isResetMail(mail: OutboxMail): boolean {
  return mail.subject === 'Reset your Inbox Genie password';
}
