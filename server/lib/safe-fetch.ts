import { isIP } from 'node:net';
import { Agent, buildConnector, type Dispatcher, request } from 'undici';
import { ForbiddenAddressError, type HostLookup, resolvePublicHost } from './address-policy.js';

// HTTP(S) requests to addresses someone else chose (a sender's unsubscribe link). The SSRF guard
// runs inside the connector: the host is resolved, every address judged by address-policy, and the
// socket opened to exactly the address that was judged, so a DNS answer that changes between a
// check and the connect (rebinding) cannot slip through. Redirects are followed here, one hop at a
// time, each hop through the same connector. No cookies and no credentials are ever sent.

export { ForbiddenAddressError };

export class RequestTimeoutError extends Error {}
export class TooManyRedirectsError extends Error {}
export class UnsupportedSchemeError extends Error {}
export class ResponseTooLargeError extends Error {}

export interface SafeRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Hosts or addresses that may be private (UNSUBSCRIBE_ALLOWED_HOSTS, tests); see parseHostList. */
  allowedHosts?: ReadonlySet<string>;
  /** Covers every hop: connect, headers and body. */
  timeoutMs?: number;
  maxRedirects?: number;
  maxBodyBytes?: number;
  /** How hosts are resolved before they are judged; the system resolver when absent. */
  lookup?: HostLookup;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  bodyText?: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Never sent, whoever the caller is: credentials and cookies do not belong in requests to senders. */
const STRIPPED = new Set(['cookie', 'cookie2', 'authorization', 'proxy-authorization', 'host']);

/** An undici dispatcher whose every connection is checked against the address policy. */
export function guardedAgent(allowedHosts: ReadonlySet<string> = new Set(), lookup?: HostLookup): Agent {
  const base = buildConnector({});
  const connect: buildConnector.connector = (options, callback) => {
    const bare = options.hostname.replace(/^\[|\]$/g, '');
    resolvePublicHost(bare, allowedHosts, lookup).then(
      (addresses) => {
        // Connect to the judged address; TLS still checks the certificate against the name asked for.
        const servername = options.servername || (isIP(bare) ? undefined : bare);
        const attempt = (i: number): void => {
          base({ ...options, hostname: addresses[i]!, servername }, (err, socket) => {
            if (err && i + 1 < addresses.length) attempt(i + 1);
            else if (err) callback(err, null);
            else callback(null, socket!);
          });
        };
        attempt(0);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
  return new Agent({ connect });
}

function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsupportedSchemeError(`Refusing to follow ${url.protocol} URL ${url.href}.`);
  }
}

async function readCapped(body: Dispatcher.ResponseData['body'], max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > max) {
      discard(body);
      throw new ResponseTooLargeError(`Response body exceeds ${max} bytes.`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One request to an untrusted URL, redirects followed by hand (301/302/303/307/308, at most
 * `maxRedirects` hops; 303, and 301/302 after a POST, become GET without a body). Throws
 * ForbiddenAddressError, RequestTimeoutError, TooManyRedirectsError, UnsupportedSchemeError,
 * ResponseTooLargeError, or undici's network errors.
 */
export async function safeRequest(
  input: string | URL,
  options: SafeRequestOptions = {},
): Promise<SafeResponse> {
  const {
    allowedHosts = new Set<string>(),
    timeoutMs = 10_000,
    maxRedirects = 5,
    maxBodyBytes = 1024 * 1024,
  } = options;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!STRIPPED.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  }

  const signal = AbortSignal.timeout(timeoutMs);
  const dispatcher = guardedAgent(allowedHosts, options.lookup);
  let url = new URL(input);
  try {
    for (let hop = 0; ; hop++) {
      checkScheme(url);
      url.username = '';
      url.password = '';
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
        dispatcher,
      });
      const location = res.headers.location;
      if (REDIRECTS.has(res.statusCode) && typeof location === 'string') {
        discard(res.body);
        if (hop >= maxRedirects) {
          throw new TooManyRedirectsError(`More than ${maxRedirects} redirects from ${String(input)}.`);
        }
        const next = new URL(location, url);
        if (res.statusCode === 303 ? method !== 'HEAD' : res.statusCode <= 302 && method === 'POST') {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        url = next;
        continue;
      }
      const bodyText = method === 'HEAD' ? undefined : await readCapped(res.body, maxBodyBytes);
      return { status: res.statusCode, headers: res.headers, finalUrl: url.href, bodyText };
    }
  } catch (err) {
    if (signal.aborted) {
      throw new RequestTimeoutError(`No complete answer from ${url.host} within ${timeoutMs} ms.`);
    }
    throw unwrap(err);
  } finally {
    dispatcher.destroy().catch(() => {});
  }
}

function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

/** undici may wrap the connector's error; the policy's refusal is what callers need to see. */
function unwrap(err: unknown): unknown {
  let e = err;
  for (let i = 0; i < 5 && e instanceof Error; i++) {
    if (e instanceof ForbiddenAddressError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return err;
}
