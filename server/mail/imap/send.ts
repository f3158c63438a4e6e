import nodemailer from 'nodemailer';
import {
  MailAuthError,
  MailConnectionError,
  MailSendUnavailableError,
  type OutgoingMessage,
  type SendResult,
} from '../provider.js';
import { DEFAULT_TIMEOUTS } from './connection.js';
import type { HostConfig } from './presets.js';

// The mailto unsubscribe request of an app-password mailbox: SMTP submission to the provider's server with
// the same address and app password as IMAP, `From` = the mailbox itself.

export interface SmtpSendOptions {
  /** null: a custom IMAP host, for which the product knows no SMTP server. */
  smtp: HostConfig | null;
  user: string;
  password: string;
  timeouts?: { connect?: number; greeting?: number; socket?: number };
}

const CONNECTION_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'EPROXY']);

export async function sendViaSmtp(options: SmtpSendOptions, message: OutgoingMessage): Promise<SendResult> {
  const { smtp } = options;
  if (!smtp) {
    throw new MailSendUnavailableError(
      'This mailbox was added with a custom IMAP server and no SMTP server, so it cannot send mail.',
    );
  }
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    // true: TLS from the first byte (465); false: STARTTLS when the server offers it (587, Proton Bridge).
    secure: smtp.secure,
    auth: { user: options.user, pass: options.password },
    connectionTimeout: options.timeouts?.connect ?? DEFAULT_TIMEOUTS.connect,
    greetingTimeout: options.timeouts?.greeting ?? DEFAULT_TIMEOUTS.greeting,
    socketTimeout: options.timeouts?.socket ?? DEFAULT_TIMEOUTS.socket,
  });
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
