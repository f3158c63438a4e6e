import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
  };
}
