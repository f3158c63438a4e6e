import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import {
  MailAuthError,
  MailConnectionError,
  MailSendUnavailableError,
  type OutgoingMessage,
  type SendResult,
} from '../provider.js';
import { connectTarget, DEFAULT_TIMEOUTS, type HostPolicy } from './connection.js';
import type { HostConfig } from './presets.js';

// The mailto unsubscribe request of an app-password mailbox: SMTP submission to the provider's server with
// the same address and app password as IMAP, `From` = the mailbox itself. The host is resolved and judged
// at each send and the connection made to the judged address, as for IMAP (connection.ts).

export interface SmtpSendOptions extends HostPolicy {
  /** null: a custom IMAP host, for which the product knows no SMTP server. */
  smtp: HostConfig | null;
  user: string;
  password: string;
  timeouts?: { connect?: number; greeting?: number; socket?: number };
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY']);

/** nodemailer's options for the judged address; tls.servername serves TLS from the first byte and STARTTLS. */
export function smtpTransportOptions(
  options: Pick<SmtpSendOptions, 'user' | 'password' | 'timeouts'> & { smtp: HostConfig },
  target: { address: string; servername: string | undefined },
): SMTPTransport.Options {
  return {
    host: target.address,
    port: options.smtp.port,
    // true: TLS from the first byte (465); false: STARTTLS when the server offers it (587, Proton Bridge).
    secure: options.smtp.secure,
    ...(target.servername ? { tls: { servername: target.servername } } : {}),
    auth: { user: options.user, pass: options.password },
    connectionTimeout: options.timeouts?.connect ?? DEFAULT_TIMEOUTS.connect,
    greetingTimeout: options.timeouts?.greeting ?? DEFAULT_TIMEOUTS.greeting,
    socketTimeout: options.timeouts?.socket ?? DEFAULT_TIMEOUTS.socket,
  };
}

export async function sendViaSmtp(options: SmtpSendOptions, message: OutgoingMessage): Promise<SendResult> {
  const { smtp } = options;
  if (!smtp) {
    throw new MailSendUnavailableError(
      'This mailbox was added with a custom IMAP server and no SMTP server, so it cannot send mail.',
    );
  }
  const { addresses, servername } = await connectTarget(smtp, options);
  // One address only: a send that failed part-way must not be repeated to another address of the server.
  const transport = nodemailer.createTransport(
    smtpTransportOptions({ ...options, smtp }, { address: addresses[0]!, servername }),
  );
  const at = `${smtp.host}:${smtp.port}`;
  try {
    const info = await transport.sendMail({
      from: options.user,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    const accepted = info.accepted.length > 0 && info.rejected.length === 0;
    return { accepted, response: info.response ?? '' };
  } catch (err) {
    const e = (typeof err === 'object' && err !== null ? err : {}) as {
      code?: string;
      response?: string;
      responseCode?: number;
    };
    if (e.code === 'EAUTH') {
      throw new MailAuthError('The mail server refused the email address or app password for sending.', {
        cause: err,
      });
    }
    if (e.code && CONNECTION_CODES.has(e.code)) {
      throw new MailConnectionError(`Could not send through the mail server at ${at}.`, { cause: err });
    }
    // The server answered but refused the message or its recipient (EENVELOPE, EMESSAGE): a result, not a
    // failure of the connection, and the SMTP answer goes on the receipt.
    if (e.response) return { accepted: false, response: e.response };
    throw err;
  } finally {
    transport.close();
  }
}
