import { ImapFlow, type ImapFlowError, type Logger } from 'imapflow';
import { MailAuthError, MailConnectionError } from '../provider.js';

export interface ImapTimeouts {
  /** DNS, TCP and TLS together. */
  connect: number;
  greeting: number;
  /** Silence on an open connection; a server thinking over a SEARCH of a large mailbox stays below it. */
  socket: number;
}

export interface ImapConnectionOptions {
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

export function newClient(options: ImapConnectionOptions): ImapFlow {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const client = new ImapFlow({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: { user: options.user, pass: options.password },
    logger: options.logger ?? false,
    connectionTimeout: timeouts.connect,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    // A scan is a burst of commands; IDLE between them would only add round trips.
    disableAutoIdle: true,
  });
  // ImapFlow reports socket failures as 'error' events too; unheard, Node would end the process.
  client.on('error', (err) => options.logger?.warn({ msg: 'IMAP connection error', err }));
  return client;
}

/** Connects and logs in, turning every failure into MailAuthError or MailConnectionError. */
export async function openClient(options: ImapConnectionOptions): Promise<ImapFlow> {
  const client = newClient(options);
  try {
    await client.connect();
    return client;
  } catch (err) {
    client.close();
    throw toMailError(err, options, 'connect');
  }
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
  where: Pick<ImapConnectionOptions, 'host' | 'port'>,
  phase: 'connect' | 'session',
  client?: ImapFlow,
): Error {
  if (err instanceof MailAuthError || err instanceof MailConnectionError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as ImapFlowError;
  const at = `${where.host}:${where.port}`;
  if (e.authenticationFailed) {
    if (e.serverResponseCode && TRANSIENT_LOGIN_CODES.has(e.serverResponseCode.toUpperCase())) {
      return new MailConnectionError(`The mail server at ${at} is not accepting logins right now.`, {
        cause: err,
      });
    }
    return new MailAuthError(AUTH_REFUSED, { cause: err });
  }
  const lost = client !== undefined && !client.usable;
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

function isImapError(e: ImapFlowError): boolean {
  return Boolean(e.code || e.responseStatus || e.command);
}
