import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';

// Mail the product itself sends (reset links, contact form). With SMTP_URL unset it is written as
// .eml files to DATA_DIR/outbox/, so a fresh install works without keys and tests can read the mail.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Where mail goes, for the start-up log: an SMTP host or the outbox folder. */
  readonly target: string;
  /** Deletes the stored mails to an address (a deleted account's); answers how many. Unset: none kept. */
  forget?(recipient: string): Promise<number>;
}

export function createMailer(options: { smtpUrl: string | null; from: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      target: `SMTP ${new URL(options.smtpUrl).host}`,
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: outbox,
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail });
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(path.join(outbox, name), info.message as Buffer, { mode: 0o600 });
    },
    async forget(recipient) {
      // Read by their To header rather than named after it, so files of every version are found.
      const wanted = recipient.trim().toLowerCase();
      let removed = 0;
      for (const name of await readdir(outbox).catch(() => [])) {
        if (!name.endsWith('.eml')) continue;
        const file = path.join(outbox, name);
        const source = await readFile(file).catch(() => null);
        if (!source) continue;
        const { to } = await simpleParser(source, { skipHtmlToText: true, skipTextToHtml: true });
        const addresses = (Array.isArray(to) ? to : to ? [to] : []).flatMap((a) => a.value);
        if (addresses.some((a) => a.address?.toLowerCase() === wanted)) {
          await unlink(file).catch(() => undefined);
          removed += 1;
        }
      }
      return removed;
    },
  };
}
