import { useEffect, useState } from 'react';
import type { PublicConfig } from '../../../contract/api.js';
import { getPublicConfig } from './calls';

// The server's public configuration changes only with a restart: fetch it once per page load.
let pending: Promise<PublicConfig | null> | undefined;

function loadPublicConfig(): Promise<PublicConfig | null> {
  pending ??= getPublicConfig().catch((error: unknown) => {
    console.error('Failed to fetch public config...', error);
    pending = undefined;
    return null;
  });
  return pending;
}

export type PublicConfigState = { status: 'loading' } | { status: 'ready'; config: PublicConfig | null };

/** The public configuration; `config` is null when it could not be fetched. */
export function usePublicConfig(): PublicConfigState {
  const [state, setState] = useState<PublicConfigState>({ status: 'loading' });
  useEffect(() => {
    let active = true;
    loadPublicConfig().then((config) => {
      if (active) setState({ status: 'ready', config });
    });
    return () => {
      active = false;
    };
  }, []);
  return state;
}
