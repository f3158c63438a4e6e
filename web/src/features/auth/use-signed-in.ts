import { useCallback } from 'react';
import { useGoTo } from '../../lib/navigation';
import { useSession } from '../../lib/session';
import { takeReturnPath } from './return-path';

/**
 * After sign-up or sign-in: learn the new session, then go back where the visitor came from (return-path.ts),
 * else where the screen says.
 */
export function useSignedIn(): (url: string) => Promise<void> {
  const { refresh } = useSession();
  const goTo = useGoTo();
  return useCallback(
    async (url: string) => {
      await refresh();
      goTo(takeReturnPath() ?? url);
    },
    [refresh, goTo],
  );
}
