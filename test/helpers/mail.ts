// Builds raw RFC 5322 messages for the IMAP tests.
import { dkimSign } from './dkim.js';

export interface TestMessage {
  from: string;
  subject: string;
  date: Date;
  listUnsubscribe?: string;
  listUnsubscribePost?: string;
  listId?: string;
  precedence?: string;
  /** Signed by the sender's domain (test/helpers/dkim.ts): by default when it offers one-click. */
  dkim?: boolean;
}

let seq = 0;

export function rawMessage(m: TestMessage): string {
  seq += 1;
  const headers = [
    `From: ${m.from}`,
    'To: someone@example.com',
    `Subject: ${m.subject}`,
    `Date: ${m.date.toUTCString()}`,
    `Message-ID: <test-${Date.now()}-${seq}@example.com>`,
    m.listUnsubscribe ? `List-Unsubscribe: ${m.listUnsubscribe}` : null,
    m.listUnsubscribePost ? `List-Unsubscribe-Post: ${m.listUnsubscribePost}` : null,
    m.listId ? `List-Id: ${m.listId}` : null,
    m.precedence ? `Precedence: ${m.precedence}` : null,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
  ].filter(Boolean);
  const raw = `${headers.join('\r\n')}\r\n\r\nHello, this body is never stored.\r\n`;
  return (m.dkim ?? m.listUnsubscribePost !== undefined) ? dkimSign(raw) : raw;
}

export const daysAgo = (n: number) => new Date(Date.UTC(2026, 10, 20) - n * 86_400_000);
