// The analytics constants both sides share, apart from api.ts: the page's entry chunk needs them, and
// api.ts would bring its schemas and zod with it (api.ts re-exports these for the server).

/** Header carrying the visitor's analytics client id on the pricing calls (stored on the checkout). */
export const ANALYTICS_CLIENT_ID_HEADER = 'x-analytics-client-id';

/**
 * After a Google or Microsoft sign-in the server redirects to the app without saying what happened; this
 * short-lived cookie (readable by the page, no secret in it) tells the page's analytics whether it was a
 * sign-up or a login and with which provider, and is deleted once read. Values: `<event>.<method>`.
 */
export const AUTH_EVENT_COOKIE = 'ig_auth_event';
export const AUTH_EVENTS = ['sign_up', 'login'] as const;
export const AUTH_METHODS = ['Google', 'Microsoft'] as const;
export type AuthEvent = { event: (typeof AUTH_EVENTS)[number]; method: (typeof AUTH_METHODS)[number] };

export const authEventValue = ({ event, method }: AuthEvent): string => `${event}.${method}`;

/** The cookie's value read back; anything else (a tampered cookie) is null. */
export function parseAuthEvent(value: string | undefined): AuthEvent | null {
  const [event, method, ...rest] = (value ?? '').split('.');
  const known = <T extends string>(list: readonly T[], v: string | undefined): v is T =>
    v !== undefined && (list as readonly string[]).includes(v);
  return rest.length === 0 && known(AUTH_EVENTS, event) && known(AUTH_METHODS, method)
    ? { event, method }
    : null;
}
