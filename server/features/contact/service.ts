import { validateContact } from '../../../contract/validation.js';
import type { Mailer } from '../../email/mailer.js';
import { badRequest } from '../../lib/errors.js';

// The contact form: forwarded to SUPPORT_EMAIL with the visitor's address as Reply-To.

const ADDRESS = /<([^<>\s]+@[^<>\s]+)>\s*$|^\s*([^<>\s]+@[^<>\s]+)\s*$/;

export function createContactService({ mailer, supportEmail }: { mailer: Mailer; supportEmail: string }) {
  return {
    async send(input: { from: string; subject: string; text: string }): Promise<void> {
      const match = ADDRESS.exec(input.from);
      const address = match?.[1] ?? match?.[2] ?? '';
      const name = input.from.replace(/<[^>]*>\s*$/, '').trim() || address;
      const error = validateContact({ name, email: address, subject: input.subject, message: input.text });
      if (error) throw badRequest(error);
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
