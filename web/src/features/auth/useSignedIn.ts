import { useCallback } from 'react';
import { useGoTo } from '../../navigation';
import { useSession } from './session';

/** After sign-up or sign-in: learn the new session, then go where the screen says. */
export function useSignedIn(): (url: string) => Promise<void> {
  const { refresh } = useSession();
  const goTo = useGoTo();
  return useCallback(
    async (url: string) => {
      await refresh();
      goTo(url);
    },
    [refresh, goTo],
  );
}
