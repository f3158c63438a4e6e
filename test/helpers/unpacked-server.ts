import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';

/** The uid and gid (`nobody`) the test mail servers run as and own their mail files with. */
export const NOBODY = 65534;

/** A mail account of a test IMAP server. */
export interface ServerUser {
  user: string;
  password: string;
}

/** An IMAP server a test helper started on loopback from unpacked packages (Courier, Cyrus). */
export interface UnpackedImapServer {
  host: string;
  port: number;
  base: string;
  addUser(user: ServerUser): Promise<void>;
  /** What the server's processes wrote to stderr (the last 8 KB). */
  log(): string;
  stop(): Promise<void>;
}

/** Waits until a server started as `child` answers on 127.0.0.1:port with its greeting (15 s at most). */
export async function waitForGreeting(
  port: number,
  child: ChildProcess,
  log: () => string,
  name: string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) at start:\n${log()}`);
    }
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('data', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.once('close', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`${name} did not answer on port ${port} within 15 s:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `command args…` under a small sh watchdog: SIGTERM to the returned child stops the server (and waits for
 * it), and so does the end of this test process, even a killed one (a timed-out Vitest worker), which a
 * server that forks its own children would otherwise outlive.
 */
export function watchedCommand(command: string, args: string[]): { command: string; args: string[] } {
  const script = [
    '"$@" & server=$!',
    'trap \'kill -TERM "$server" 2>/dev/null; wait "$server"; exit 0\' TERM INT',
    `while kill -0 ${process.pid} 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 0.5; done`,
    'kill -TERM "$server" 2>/dev/null',
    'wait "$server"',
  ].join('\n');
  return { command: 'sh', args: ['-c', script, 'watchdog', command, ...args] };
}

const MULTIARCH = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu`;

/** LD_LIBRARY_PATH for a server unpacked into `dir` (the folders scripts/system-deps.mjs checks with ldd). */
export function unpackedLibraryPath(dir: string): string {
  return ['usr/lib', `usr/lib/${MULTIARCH}`, `lib/${MULTIARCH}`, 'usr/lib/courier-authlib']
    .map((p) => path.join(dir, p))
    .join(':');
}

/** Folder of the SASL plugins unpacked with a server, when this machine does not have them installed. */
export function unpackedSaslPath(dir: string): string | null {
  const plugins = path.join(dir, `usr/lib/${MULTIARCH}/sasl2`);
  return existsSync(plugins) ? plugins : null;
}
