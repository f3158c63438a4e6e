// Back to where the visitor was after signing up or in (e.g. /pricing after a paid plan's button while
// signed out). The screen that sends a visitor to sign up adds `?next=<path>`; the sign-up and sign-in
// screens keep it in sessionStorage, because a Google or Microsoft sign-in leaves the SPA and the
// server brings it back to /genie/subscriptions. Only paths of this site's screens are accepted, never
// another origin nor a server path, so that a crafted link cannot send anyone elsewhere.
import { SCREENS, safeReturnPath } from '#contract/routes.js';

export const RETURN_PATH_KEY = 'inbox-genie.return-path';
/** A stored path older than this is forgotten (a sign-up abandoned and done later is a fresh start). */
export const RETURN_PATH_TTL_MS = 30 * 60 * 1000;

// The rule itself is the contract's, shared with the server's return URLs.
export { safeReturnPath };

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function sessionStore(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps `path` (when it is a safe one) as the place to return to after signing in. */
export function rememberReturnPath(
  path: string | null,
  { store = sessionStore(), origin = window.location.origin, now = Date.now() } = {},
): void {
  const safe = safeReturnPath(path, origin);
  if (!safe || !store) return;
  try {
    store.setItem(RETURN_PATH_KEY, JSON.stringify({ path: safe, at: now }));
  } catch {
    // Storage refused: the visitor lands on the default screen.
  }
}

/** The remembered path (removed as it is read), or null when none, stale or unsafe. */
export function takeReturnPath({
  store = sessionStore(),
  origin = window.location.origin,
  now = Date.now(),
} = {}): string | null {
  if (!store) return null;
  try {
    const raw = store.getItem(RETURN_PATH_KEY);
    if (!raw) return null;
    store.removeItem(RETURN_PATH_KEY);
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown };
    if (typeof path !== 'string' || typeof at !== 'number' || now - at > RETURN_PATH_TTL_MS || now < at) {
      return null;
    }
    return safeReturnPath(path, origin);
  } catch {
    return null;
  }
}

/** `/signup?next=<path>`: the sign-up screen that brings the visitor back to `path`. */
export function signupReturningTo(path: string): string {
  return `/signup?next=${encodeURIComponent(path)}`;
}

/**
 * Where an already signed-in visitor goes instead of a sign-in or sign-up form: the `?next=` path when
 * it is a safe one (a signed-in visitor sent to sign up from /pricing goes back there), else the app.
 */
export function signedInDestination(next: string | null, origin: string): string {
  return safeReturnPath(next, origin) ?? SCREENS.subscriptions;
}
