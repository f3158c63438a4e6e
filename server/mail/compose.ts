import MailComposer from 'nodemailer/lib/mail-composer';

// RFC 5322 messages the product sends from a user's mailbox (Gmail `messages.send` takes them raw).

export interface ComposedMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export function buildRawMessage(message: ComposedMessage): Promise<Buffer> {
  return new MailComposer({
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
  })
    .compile()
    .build();
}
