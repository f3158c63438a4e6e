import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

// A local SMTP submission server for the mailto tests: 127.0.0.1 on a free port, AUTH PLAIN/LOGIN
// for one user, no TLS, every accepted message recorded with its envelope and raw bytes.

export interface ReceivedMail {
  /** The authenticated user of the session. */
  user: string | undefined;
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

export interface SmtpPeer {
  host: string;
  port: number;
  received: ReceivedMail[];
  /** Failed AUTH attempts, by user name. */
  authFailures: string[];
  /**
   * What the peer answers once a message's data has arrived: accept it (250), refuse it (554, nothing
   * recorded), or record it and never answer (a provider that hangs after taking the mail).
   */
  mode: 'accept' | 'refuse' | 'hang';
  stop(): Promise<void>;
}

export async function startSmtpPeer(account: { user: string; password: string }): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const hanging: Array<() => void> = [];
  const authFailures: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    // Plain AUTH over a socket without TLS is refused by default; this peer lives on loopback only.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === account.user && auth.password === account.password) {
        callback(null, { user: auth.username });
        return;
      }
      authFailures.push(auth.username ?? '');
      const err = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (peer.mode === 'refuse') {
          callback(Object.assign(new Error('Message refused by policy'), { responseCode: 554 }));
          return;
        }
        const from = session.envelope.mailFrom;
        received.push({
          user: typeof session.user === 'string' ? session.user : undefined,
          mailFrom: from ? (from as SMTPServerAddress).address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        if (peer.mode === 'hang') hanging.push(() => callback(null, 'Message queued late'));
        else callback(null, 'Message queued as igtest');
      });
    },
  });
  server.on('error', () => {
    // Client disconnects mid-session are reported here; the tests look at what was received.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP peer did not bind a TCP port');
  const peer: SmtpPeer = {
    host: '127.0.0.1',
    port: address.port,
    received,
    authFailures,
    mode: 'accept',
    stop: () => {
      for (const answer of hanging.splice(0)) answer();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return peer;
}
