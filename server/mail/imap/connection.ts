import { isIP } from 'node:net';
import { ImapFlow, type ImapFlowError, type ImapFlowOptions, type Logger } from 'imapflow';
import { ForbiddenAddressError, type HostLookup, resolvePublicHost } from '#server/lib/address-policy.js';
import { MailAuthError, MailConnectionError } from '../provider.js';

// Every connection to a mail server (IMAP here, SMTP in send.ts) resolves the host at that moment,
// judges every address it resolves to by lib/address-policy and connects to the judged address, the
// name kept for TLS (SNI and the certificate check), as lib/safe-fetch does for senders' links. A
// host checked once when the mailbox was added could later be re-pointed at 127.x or 10.x (or answer
// DNS differently at each query, rebinding); ImapFlow and nodemailer resolving it themselves again
// would connect wherever it points then.

export interface ImapTimeouts {
  /** DNS, TCP and TLS together. */
  connect: number;
  greeting: number;
  /** Silence on an open connection; a server thinking over a SEARCH of a large mailbox stays below it. */
  socket: number;
}

/** Which hosts a connection may reach, and how names are resolved. */
export interface HostPolicy {
  /**
   * Hosts or addresses that may be private: IMAP_ALLOWED_HOSTS, and the hosts the operator or the
   * product configured (MAIL_PROVIDER_OVERRIDES, Proton Mail Bridge on loopback). Empty: public only.
   */
  allowedHosts?: ReadonlySet<string>;
  /** The system resolver unless a test plays DNS. */
  lookup?: HostLookup;
}

export interface ImapConnectionOptions extends HostPolicy {
  host: string;
  port: number;
  /** true: TLS from the first byte; false: STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  password: string;
  logger?: Logger;
  timeouts?: Partial<ImapTimeouts>;
}

// ImapFlow's own defaults (90 s to connect, 5 min of silence) would leave the add-mailbox screen
// spinning long after the user gave up.
export const DEFAULT_TIMEOUTS: ImapTimeouts = { connect: 15_000, greeting: 15_000, socket: 60_000 };

export const AUTH_REFUSED = 'The mail server refused the email address or app password.';

// RFC 5530 codes that mean "not now" rather than "wrong password": the user must not be told to
// change a password that is fine.
const TRANSIENT_LOGIN_CODES = new Set(['UNAVAILABLE', 'INUSE', 'LIMIT', 'SERVERBUG', 'OVERQUOTA']);

/** The host resolves to an address this server may not contact (private network, loopback…). */
export class MailHostForbiddenError extends MailConnectionError {}

export interface ConnectTarget {
  /** Where to connect: every address the host resolved to, each judged by the policy. */
  addresses: string[];
  /** The name for TLS SNI and the certificate check; none for an address literal. */
  servername: string | undefined;
}

/**
 * Resolves and judges a mail server's host for one connect. Throws MailHostForbiddenError for an
 * address the policy refuses and MailConnectionError for a name that does not resolve, so callers
 * treat both as a server that cannot be reached (502 on screen, status `error` after a scan).
 */
export async function connectTarget(
  where: { host: string; port: number },
  policy: HostPolicy,
): Promise<ConnectTarget> {
  const bare = where.host.replace(/^\[|\]$/g, '');
  try {
    const addresses = await resolvePublicHost(bare, policy.allowedHosts, policy.lookup);
    return { addresses, servername: isIP(bare) ? undefined : bare };
  } catch (err) {
    if (err instanceof ForbiddenAddressError) {
      throw new MailHostForbiddenError(
        `The mail server ${where.host} is on a private network that Inbox Genie may not connect to.`,
        { cause: err },
      );
    }
    throw new MailConnectionError(`Could not reach the mail server at ${where.host}:${where.port}.`, {
      cause: err,
    });
  }
}

/** ImapFlow's options for one address of the server; it passes host and servername to net/tls.connect. */
export function imapFlowOptions(
  options: ImapConnectionOptions,
  target: { address: string; servername: string | undefined },
): ImapFlowOptions {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  return {
    host: target.address,
    // TLS (from the first byte or after STARTTLS) presents and verifies the name, not the address.
    servername: target.servername,
    port: options.port,
    secure: options.secure,
    auth: { user: options.user, pass: options.password },
    logger: options.logger ?? false,
    connectionTimeout: timeouts.connect,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    // A scan is a burst of commands; IDLE between them would only add round trips.
    disableAutoIdle: true,
  };
}

function newClient(
  options: ImapConnectionOptions,
  target: { address: string; servername: string | undefined },
): ImapFlow {
  const client = new ImapFlow(imapFlowOptions(options, target));
  // ImapFlow reports socket failures as 'error' events too; unheard, Node would end the process.
  client.on('error', (err) => options.logger?.warn({ msg: 'IMAP connection error', err }));
  return client;
}

// Failures that come at once and say nothing of the server's other addresses (an IPv6 route missing).
const NEXT_ADDRESS = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL']);

/** Connects and logs in, turning every failure into MailAuthError or MailConnectionError. */
export async function openClient(options: ImapConnectionOptions): Promise<ImapFlow> {
  return openClientAt(options, await connectTarget(options, options));
}

/**
 * Connects to addresses already judged by connectTarget (the scan's worker thread gets them from the main
 * thread, which holds the host policy and the resolver), trying the next one only when the route failed.
 */
export async function openClientAt(
  options: ImapConnectionOptions,
  { addresses, servername }: ConnectTarget,
): Promise<ImapFlow> {
  let failure: Error | undefined;
  for (const address of addresses) {
    const client = newClient(options, { address, servername });
    try {
      await client.connect();
      return client;
    } catch (err) {
      client.close();
      failure = toMailError(err, options, 'connect');
      if (!NEXT_ADDRESS.has((err as { code?: string } | null)?.code ?? '')) throw failure;
    }
  }
  throw (
    failure ?? new MailConnectionError(`Could not reach the mail server at ${options.host}:${options.port}.`)
  );
}

export async function closeClient(client: ImapFlow): Promise<void> {
  if (!client.usable) {
    client.close();
    return;
  }
  try {
    await client.logout();
  } catch {
    client.close();
  }
}

/**
 * Maps what ImapFlow and Node throw onto the port's two errors. Anything else (a bug of ours) is passed on
 * untouched so it is not retried as if the server were at fault.
 */
export function toMailError(
  err: unknown,
  where: Pick<ImapConnectionOptions, 'host' | 'port' | 'timeouts'>,
  phase: 'connect' | 'session',
  client?: ImapFlow,
): Error {
  if (err instanceof MailAuthError || err instanceof MailConnectionError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as ImapFlowError;
  const at = `${where.host}:${where.port}`;
  // A server that took the connection and then said nothing: named as such on the mailbox (last_error).
  const waited = e.code ? TIMEOUT_CODES[e.code] : undefined;
  if (waited) {
    const ms = { ...DEFAULT_TIMEOUTS, ...where.timeouts }[waited];
    const span = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
    const what = e.code === 'GREETING_TIMEOUT' ? ' (it took the connection but sent no greeting)' : '';
    return new MailConnectionError(`The mail server at ${at} did not answer within ${span}${what}.`, {
      cause: err,
    });
  }
  if (e.authenticationFailed) {
    if (e.serverResponseCode && TRANSIENT_LOGIN_CODES.has(e.serverResponseCode.toUpperCase())) {
      return new MailConnectionError(`The mail server at ${at} is not accepting logins right now.`, {
        cause: err,
      });
    }
    return new MailAuthError(AUTH_REFUSED, { cause: err });
  }
  const lost = client !== undefined && !client.usable;
  if (e.code && CLIENT_SIDE_CODES.has(e.code)) {
    // ImapFlow refused a command of ours before sending it: the server never saw it, so it is not blamed.
    return Object.assign(
      new Error(
        `Inbox Genie made an invalid request, refused before it reached the mail server at ${at} (an error on our side, not the server's): ${e.message ?? 'unknown error'}`,
        { cause: err },
      ),
      { code: e.code },
    );
  }
  if (phase === 'session' && lost) {
    return new MailConnectionError(`The connection to the mail server at ${at} was lost.`, { cause: err });
  }
  if (phase === 'connect' || lost || isImapError(e)) {
    const tls = e.tlsFailed || /CERT|TLS|SSL/i.test(e.code ?? '');
    const detail = tls ? ' (its TLS certificate or settings were not accepted)' : '';
    const message =
      phase === 'connect'
        ? `Could not reach the mail server at ${at}${detail}.`
        : `The mail server at ${at} failed a command: ${e.responseText ?? e.message ?? 'unknown error'}`;
    return new MailConnectionError(message, { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}

// ImapFlow's codes for a server that went quiet, and the timeout that ran out.
const TIMEOUT_CODES: Record<string, keyof ImapTimeouts> = {
  CONNECT_TIMEOUT: 'connect',
  GREETING_TIMEOUT: 'greeting',
  ETIMEOUT: 'socket',
};

// ImapFlow's codes for a command it would not send (invalid values, API misuse): failures of the caller.
const CLIENT_SIDE_CODES = new Set([
  'InvalidStringValue',
  'InvalidTokenValue',
  'InvalidTextValue',
  'InvalidSequenceSet',
  'InvalidSearchQuery',
  'InvalidMessageContent',
  'InstanceReused',
  'NoMailboxSelected',
  'UnsupportedTransportOption',
]);

function isImapError(e: ImapFlowError): boolean {
  return Boolean(e.code || e.responseStatus || e.command);
}
