import { usePublicConfig } from '../../lib/public-config';

/**
 * Whether the marketing pages speak of the free trial: only where plans are sold (the public config's
 * `billing`). With billing off nothing is limited, and a "trial" would promise an end that never comes;
 * while the config is unknown, nothing is said rather than a claim taken back a moment later.
 */
export function useTrialOffered(): boolean {
  const state = usePublicConfig();
  return state.status === 'ready' && state.config?.billing === true;
}
