import {
  ForbiddenAddressError,
  RequestTimeoutError,
  ResponseTooLargeError,
  safeRequest,
  TooManyRedirectsError,
  UnsupportedSchemeError,
} from '#server/lib/safe-fetch.js';

// RFC 8058 one-click unsubscribe (docs/decisions/019-the-unsubscribe-engine.md): POST `List-Unsubscribe=One-Click`, form-encoded,
// to the sender's https URI, without cookies or credentials, within 10 s; any 2xx is success. The
// answer has the shape of a receipt, so every attempt can be stored as it is.

export interface OneClickReceipt {
  method: 'one-click';
  target: string;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  /** ISO time of the attempt */
  at: string;
}

export interface OneClickOptions {
  /** UNSUBSCRIBE_ALLOWED_HOSTS, parsed with parseHostList */
  allowedHosts?: ReadonlySet<string>;
  timeoutMs?: number;
}

export const ONE_CLICK_BODY = 'List-Unsubscribe=One-Click';

/** Never throws for what the sender does (or fails to do): the receipt says ok:false and why. */
export async function oneClickUnsubscribe(
  uri: string,
  options: OneClickOptions = {},
): Promise<OneClickReceipt> {
  const at = new Date().toISOString();
  const receipt = (ok: boolean, httpStatus: number | null, error: string | null): OneClickReceipt => ({
    method: 'one-click',
    target: uri,
    ok,
    httpStatus,
    error,
    at,
  });

  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return receipt(false, null, 'The unsubscribe link is not a valid URL.');
  }
  // RFC 8058 §3.1: the one-click URI must be https.
  if (url.protocol !== 'https:') return receipt(false, null, 'One-click unsubscribe needs an https link.');

  try {
    const res = await safeRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: ONE_CLICK_BODY,
      allowedHosts: options.allowedHosts,
      timeoutMs: options.timeoutMs ?? 10_000,
    });
    const ok = res.status >= 200 && res.status < 300;
    return receipt(ok, res.status, ok ? null : `The sender answered HTTP ${res.status}.`);
  } catch (err) {
    return receipt(false, null, describe(err));
  }
}

function describe(err: unknown): string {
  if (err instanceof ForbiddenAddressError) return `Refused: ${err.message}`;
  if (err instanceof RequestTimeoutError) return `Timed out: ${err.message}`;
  if (err instanceof TooManyRedirectsError || err instanceof UnsupportedSchemeError) return err.message;
  if (err instanceof ResponseTooLargeError) return err.message;
  const e = err as { code?: string; message?: string };
  return `Could not reach the sender${e.code ? ` (${e.code})` : ''}: ${e.message ?? String(err)}`;
}
