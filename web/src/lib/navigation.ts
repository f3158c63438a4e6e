import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { API_PREFIXES } from '#contract/routes.js';

/** Whether a same-origin path belongs to the server (API, OAuth) rather than to the SPA. */
function isServerPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * Goes to an address the server returned (e.g. redirectUrl): SPA screens through the router,
 * anything on another origin or under an API path with a full page load.
 */
export function useGoTo(): (url: string, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  return useCallback(
    (url, options) => {
      const target = new URL(url, window.location.origin);
      const path = `${target.pathname}${target.search}${target.hash}`;
      if (target.origin !== window.location.origin || isServerPath(target.pathname)) {
        window.location.assign(target.href);
      } else {
        navigate(path, options);
      }
    },
    [navigate],
  );
}
