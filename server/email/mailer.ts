import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';

// Mail the product itself sends (reset links, contact form, the weekly report). With SMTP_URL unset it is
// written as .eml files to DATA_DIR/outbox/, so a fresh install works without keys and tests can read the
// mail. With a DKIM key (DKIM_PRIVATE_KEY, DKIM_SELECTOR) every mail is signed by mailauth before it goes
// out, and the signed bytes are what SMTP gets and the outbox keeps.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (multipart/alternative). */
  html?: string;
  replyTo?: string;
  /** Extra header fields (List-Unsubscribe, List-Unsubscribe-Post), written as given. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** Where mail goes, for the start-up log: an SMTP host or the outbox folder. */
  readonly target: string;
  /** Deletes the stored mails to an address (a deleted account's); answers how many. Unset: none kept. */
  forget?(recipient: string): Promise<number>;
}

export interface DkimKey {
  privateKey: string;
  selector: string;
  /** The d= domain; aligned with MAIL_FROM's domain for DMARC and for one-click (RFC 8058 §3.1). */
  domain: string;
}

/**
 * The fields a signature covers: mailauth's usual list lacks List-Unsubscribe-Post, which RFC 8058 §3.1
 * asks to be signed together with List-Unsubscribe (mailauth takes the list as one colon-separated string).
 */
export const DKIM_SIGNED_FIELDS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
].join(':');

/** The message as RFC 5322 bytes (CRLF), with its DKIM-Signature field first. */
export async function signMessage(raw: Buffer, key: DkimKey): Promise<Buffer> {
  const signature = { signingDomain: key.domain, selector: key.selector, privateKey: key.privateKey };
  const { signatures, errors } = await dkimSign(raw, {
    ...signature,
    // The signer signs what `signatureData` lists (its types put the key at the top level, where it is unused).
    signatureData: [{ ...signature, canonicalization: 'relaxed/relaxed' }],
    canonicalization: 'relaxed/relaxed',
    // mailauth reads a string here (its types say string[]; an array would fall back to its default list).
    headerList: DKIM_SIGNED_FIELDS as unknown as string[],
  });
  const failed = (errors as Array<{ err?: Error }> | undefined)?.[0];
  if (failed) throw new Error(`DKIM signing failed: ${failed.err?.message ?? String(failed)}`);
  // A message must never go out unsigned when a key is set: no signature is a failure too.
  if (!/^DKIM-Signature:/i.test(signatures)) throw new Error('DKIM signing failed: no signature was made');
  return Buffer.concat([Buffer.from(signatures), raw]);
}

export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  dkim?: DkimKey | null;
}): Mailer {
  const dkim = options.dkim ?? null;
  // Signed mail is built here, as the bytes the signature covers (CRLF, as on the wire), then sent raw.
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const signed = async (mail: OutgoingMail): Promise<Buffer> => {
    const info = await composer.sendMail({ from: options.from, ...mail });
    return signMessage(info.message as Buffer, dkim as DkimKey);
  };
  // MAIL_FROM is "Name <address>" or a bare address.
  const envelopeFrom = /<([^<>]+)>\s*$/.exec(options.from)?.[1] ?? options.from.trim();

  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      target: `SMTP ${new URL(options.smtpUrl).host}`,
      async send(mail) {
        if (!dkim) {
          await transport.sendMail({ from: options.from, ...mail });
          return;
        }
        await transport.sendMail({
          envelope: { from: envelopeFrom, to: [mail.to] },
          raw: await signed(mail),
        });
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    target: outbox,
    async send(mail) {
      const message = dkim
        ? await signed(mail)
        : ((await transport.sendMail({ from: options.from, ...mail })).message as Buffer);
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(path.join(outbox, name), message, { mode: 0o600 });
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
