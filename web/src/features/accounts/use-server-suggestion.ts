import { useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { MailboxSettingsResponse } from '#contract/api.js';
import { validateEmail } from '#contract/validation.js';
import { fetchMailboxSettings } from './api/mailbox-settings';

// The add-mailbox form of "another IMAP host" fills its server fields from the address: when the form
// opens with an address already in it (a reconnect, the address typed at sign-up) and when the user
// leaves the Email field, the server looks the domain up (GET /mailbox-settings) and an empty IMAP Server
// field takes the answer. What the user typed is never replaced; a value this hook filled in is, when the
// address changes. No answer, a failure or a limit reached leaves the form as it was: the user types the
// server, as before.

interface ServerFields {
  email: string;
  appPassword: string;
  host: string;
  port: string;
  secure: boolean;
}

type Source = NonNullable<MailboxSettingsResponse['source']>;

const SOURCE_WORDS: Record<Source, (domain: string) => string> = {
  srv: (domain) => `Found in the DNS records of ${domain}. Check it before adding.`,
  autoconfig: (domain) => `Found in the mail settings ${domain} publishes. Check it before adding.`,
  table: (domain) => `The usual server for ${domain}. Check it before adding.`,
};

interface Filled {
  host: string;
  port: string;
  note: string;
}

/**
 * `onEmailBlur` for the Email field's registration, and the note to show under the IMAP Server field
 * while it holds the suggestion (null otherwise). `defaultPort`: the Port field's starting value, which
 * counts as not typed.
 */
export function useServerSuggestion<T extends ServerFields>(
  form: UseFormReturn<T>,
  { enabled, defaultPort }: { enabled: boolean; defaultPort: string },
) {
  const typed = form as unknown as UseFormReturn<ServerFields>;
  const [filled, setFilled] = useState<Filled | null>(null);
  // The same, read after an await (the state of the render that started the lookup may be old by then).
  const filledNow = useRef<Filled | null>(null);
  const asked = useRef('');

  async function onEmailBlur(): Promise<void> {
    const email = typed.getValues('email').trim();
    if (!enabled || validateEmail(email) !== null || asked.current === email.toLowerCase()) return;
    asked.current = email.toLowerCase();
    let answer: MailboxSettingsResponse;
    try {
      answer = await fetchMailboxSettings(email);
    } catch {
      return;
    }
    // Read after the answer: the user may have typed meanwhile.
    const { host, port } = typed.getValues();
    const before = filledNow.current;
    const ours = before !== null && host === before.host;
    if (!answer.imap || !answer.source || (host.trim() !== '' && !ours)) return;
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const nextPort = String(answer.imap.port);
    typed.setValue('host', answer.imap.host);
    if (port.trim() === defaultPort || (before !== null && port === before.port)) {
      typed.setValue('port', nextPort);
      typed.setValue('secure', answer.imap.secure);
    }
    filledNow.current = { host: answer.imap.host, port: nextPort, note: SOURCE_WORDS[answer.source](domain) };
    setFilled(filledNow.current);
  }

  // An address the form starts with is looked up at once: the user may never pass through its field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the address the form opened with
  useEffect(() => {
    void onEmailBlur();
  }, []);

  const host = typed.watch('host');
  return { onEmailBlur, note: filled && host === filled.host ? filled.note : null };
}
