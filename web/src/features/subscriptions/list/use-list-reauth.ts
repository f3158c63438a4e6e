import { useEffect } from 'react';
import { isStatus, messageOf, redirectUrlOf } from '../../../lib/api-client';

/**
 * A mailbox that needs signing in again, while a list is open (its fetch answered 401 with the address):
 * the screen's Re-authentication Required dialog with the server's reason. Null when none.
 */
export function useListReauth(
  list: { isError: boolean; error: unknown },
  askReauth: (authUrl: string, reason?: string) => void,
): { url: string; reason: string } | null {
  const reauthUrl = list.isError && isStatus(list.error, 401) ? redirectUrlOf(list.error) : null;
  const reauthReason = reauthUrl ? messageOf(list.error, '') : '';
  useEffect(() => {
    if (reauthUrl) askReauth(reauthUrl, reauthReason || undefined);
  }, [reauthUrl, reauthReason, askReauth]);
  return reauthUrl ? { url: reauthUrl, reason: reauthReason } : null;
}
