import type { Server as HttpServer, IncomingHttpHeaders } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/events.js';

export type LiveServer = Server<ClientToServerEvents, ServerToClientEvents>;

export interface Live {
  io: LiveServer;
  emitToUser<E extends keyof ServerToClientEvents>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
}

/** Sessions that ended: one by its stored id, or every session of a user but the one kept (if any). */
export type EndedSessions = { sessionId: string } | { userId: string; exceptSessionId: string | null };

/**
 * What live/ needs from accounts and sessions, injected by the composition root (server/app.ts) so this
 * layer imports neither http/ nor features/.
 */
export interface LiveAuth {
  /** The signed-in user and the stored id of the session behind a Cookie header, or null. */
  authenticate(cookieHeader: string): Promise<{ userId: string; sessionId: string } | null>;
  /** Registers a listener called whenever sessions end (logout, password reset, account deletion). */
  onSessionsEnded(listener: (ended: EndedSessions) => void): void;
}

export const userRoom = (userId: string) => `user:${userId}`;
/** Every socket opened with one session (by its stored id), so a logout closes exactly those. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origins whose pages may open a socket: PUBLIC_URL's. When PUBLIC_URL is on a loopback name (the
 * default http://localhost:3000), the same scheme and port on the other loopback names too: it is the
 * same server on the same machine, and a product started on localhost is often opened at 127.0.0.1.
 */
export function allowedOrigins(publicUrl: string): Set<string> {
  const url = new URL(publicUrl);
  const origins = new Set([url.origin]);
  if (LOOPBACK.has(url.hostname)) {
    const port = url.port ? `:${url.port}` : '';
    for (const host of LOOPBACK) origins.add(`${url.protocol}//${host}${port}`);
  }
  return origins;
}

/**
 * Whether a handshake may proceed. A browser names the page's origin on every WebSocket handshake and on
 * every cross-origin request, so a foreign page is refused by its Origin. No Origin is accepted: it is a
 * same-origin polling GET (browsers leave Origin out there) or a client that is not a browser, which can
 * only carry a session cookie it already holds. A no-Origin request the browser itself marks as not
 * same-origin (Sec-Fetch-Site: a no-cors GET from a sibling site) is refused too.
 */
export function handshakeAllowed(headers: IncomingHttpHeaders, allowed: Set<string>): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return allowed.has(origin);
  const site = headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/**
 * socket.io on the same origin as the API. A socket is accepted only from the product's own origin and
 * with a valid session cookie; it joins the room of its user, so events reach every open tab of that
 * user and no one else, and the room of its session, so it is closed when that session ends.
 */
/** Live connections one session may hold on one instance. */
export const SOCKETS_PER_SESSION = 20;

export function attachLive(
  server: HttpServer,
  auth: LiveAuth,
  publicUrl: string,
  cluster?: { pool: pg.Pool; channelPrefix: string },
): Live {
  const origins = allowedOrigins(publicUrl);
  const io: LiveServer = new Server(server, {
    serveClient: false,
    cors: { origin: false },
    allowRequest: (req, callback) => {
      const ok = handshakeAllowed(req.headers, origins);
      callback(ok ? null : 'This page may not open a live connection.', ok);
    },
  });
  // On PostgreSQL, events fan out to every instance through LISTEN/NOTIFY, so a job run by a
  // worker process reaches the sockets held by the API processes; disconnects fan out the same way.
  if (cluster) io.adapter(createAdapter(cluster.pool, { channelPrefix: cluster.channelPrefix }));
  io.use(async (socket, next) => {
    try {
      const session = await auth.authenticate(socket.handshake.headers.cookie ?? '');
      if (!session) return next(new Error('Not signed in'));
      // A tab holds one socket; a few dozen is every tab a person opens. More is a script holding
      // connections open (counted on this instance, where they would pile up).
      const held = io.sockets.adapter.rooms.get(sessionRoom(session.sessionId))?.size ?? 0;
      if (held >= SOCKETS_PER_SESSION) return next(new Error('Too many live connections for this session.'));
      socket.data.userId = session.userId;
      socket.data.sessionId = session.sessionId;
      await socket.join([userRoom(session.userId), sessionRoom(session.sessionId)]);
      next();
    } catch (error) {
      next(error as Error);
    }
  });
  // A socket lives no longer than its session: logout closes that session's sockets, a password reset
  // every other session's, an account deletion all of the user's, on whichever instance holds them.
  // They cannot come back: the handshake checks the session, which is gone.
  auth.onSessionsEnded((ended) => {
    const target =
      'sessionId' in ended
        ? io.in(sessionRoom(ended.sessionId))
        : ended.exceptSessionId
          ? io.in(userRoom(ended.userId)).except(sessionRoom(ended.exceptSessionId))
          : io.in(userRoom(ended.userId));
    target.disconnectSockets(true);
  });
  return {
    io,
    emitToUser(userId, event, ...args) {
      io.to(userRoom(userId)).emit(event, ...args);
    },
  };
}
