import type { ContactBody } from '#contract/api.js';
import type { Mailer } from '#server/email/mailer.js';

// The contact form: forwarded to SUPPORT_EMAIL with the visitor's address as Reply-To. The route checked
// the form with the contract's contactBodySchema (every field filled, an address in `from`).

export function createContactService({ mailer, supportEmail }: { mailer: Mailer; supportEmail: string }) {
  return {
    async send(input: ContactBody): Promise<void> {
      await mailer.send({
        to: supportEmail,
        replyTo: input.from.trim(),
        subject: `[Contact] ${input.subject.trim().slice(0, 200)}`,
        text: `From: ${input.from.trim()}\n\n${input.text.slice(0, 20_000)}`,
      });
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
