import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/events.js';
import type { AccountsService } from '../features/accounts/service.js';
import { SESSION_COOKIE } from '../http/plugins/session.js';

export type LiveServer = Server<ClientToServerEvents, ServerToClientEvents>;

export interface Live {
  io: LiveServer;
  emitToUser<E extends keyof ServerToClientEvents>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void;
}

export const userRoom = (userId: string) => `user:${userId}`;

/**
 * socket.io on the same origin as the API. A socket is accepted only with a valid session cookie
 * and joins the room of its user, so events reach every open tab of that user and no one else.
 */
export function attachLive(
  server: HttpServer,
  accounts: AccountsService,
  parseCookie: (header: string) => Record<string, string | undefined>,
  cluster?: { pool: pg.Pool; channelPrefix: string },
): Live {
  const io: LiveServer = new Server(server, { serveClient: false, cors: { origin: false } });
  // On PostgreSQL, events fan out to every instance through LISTEN/NOTIFY, so a job run by a
  // worker process reaches the sockets held by the API processes.
  if (cluster) io.adapter(createAdapter(cluster.pool, { channelPrefix: cluster.channelPrefix }));
  io.use(async (socket, next) => {
    try {
      const cookies = parseCookie(socket.handshake.headers.cookie ?? '');
      const user = await accounts.sessionUser(cookies[SESSION_COOKIE]);
      if (!user) return next(new Error('Not signed in'));
      socket.data.userId = user.userId;
      await socket.join(userRoom(user.userId));
      next();
    } catch (error) {
      next(error as Error);
    }
  });
  return {
    io,
    emitToUser(userId, event, ...args) {
      io.to(userRoom(userId)).emit(event, ...args);
    },
  };
}
