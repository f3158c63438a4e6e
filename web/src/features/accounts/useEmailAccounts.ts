import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';
import type { EmailAccount } from '../../../../contract/api.js';
import { ALERTS } from '../../../../contract/validation.js';
import { getEmailAccounts } from '../../api/calls';

export interface EmailAccounts {
  /** null until the first answer (an empty list when the fetch failed). */
  accounts: EmailAccount[] | null;
  setAccounts: Dispatch<SetStateAction<EmailAccount[] | null>>;
  /** Asks again; the latest call wins. */
  reload: () => Promise<void>;
}

/** The connected mailboxes (GET /get-email-accounts). A failed fetch is only logged (SPEC §8). */
export function useEmailAccounts(): EmailAccounts {
  const [accounts, setAccounts] = useState<EmailAccount[] | null>(null);
  const latest = useRef(0);
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const answer = await getEmailAccounts();
      if (mounted.current && call === latest.current) setAccounts(answer?.data ?? []);
    } catch (error) {
      console.warn(ALERTS.fetchEmailAccountsFailed, error);
      if (mounted.current && call === latest.current) setAccounts((known) => known ?? []);
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  return { accounts, setAccounts, reload };
}
