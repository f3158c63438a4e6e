import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

// A TCP proxy on 127.0.0.1 in front of a real IMAP server that makes it look like a server without some
// extensions (docs/decisions/064-imap-compatibility-as-a-tested-property.md): the hidden capabilities leave every CAPABILITY list
// (untagged, and the [CAPABILITY …] code of the greeting and of LOGIN's OK), the answers only those
// extensions give are taken out ([COPYUID …] without UIDPLUS, special-use flags in LIST without
// SPECIAL-USE), and a command that needs a hidden extension is refused with BAD, as such a server would.
// It can also leave UIDNEXT out of SELECT/EXAMINE answers, as Courier IMAP does. Both directions are framed
// line by line with literals passed through untouched, so message content is never rewritten.

export const HIDEABLE = [
  'CONDSTORE',
  'QRESYNC',
  'MOVE',
  'UIDPLUS',
  'SPECIAL-USE',
  'ESEARCH',
  'LIST-STATUS',
  'ENABLE',
] as const;
export type Hideable = (typeof HIDEABLE)[number];

export interface ImapProxyOptions {
  upstream: { host: string; port: number };
  hide?: readonly Hideable[];
  /** Drop `* OK [UIDNEXT n]` from SELECT and EXAMINE answers (STATUS still answers it). */
  stripUidNext?: boolean;
}

export interface ImapProxy {
  host: string;
  port: number;
  /** Command names the clients sent (`UID FETCH`, `SELECT`…), in order. */
  commands: string[];
  /** Commands refused because they need a hidden extension. */
  refused: string[];
  /** Client connections open now. */
  connections(): number;
  /** Cuts every open connection, both ways (a server restarted, a NAT that forgot them); still listens. */
  drop(): void;
  close(): Promise<void>;
}

// Capabilities that go with a hidden one: XLIST is Gmail's older form of SPECIAL-USE (ImapFlow falls back to
// it), CREATE-SPECIAL-USE builds on it. QRESYNC needs CONDSTORE and ENABLE (RFC 7162): it is hidden, and
// its commands refused, with either.
const IMPLIED: Partial<Record<Hideable, string[]>> = {
  'SPECIAL-USE': ['XLIST', 'CREATE-SPECIAL-USE'],
};

// Always hidden: once compressed (RFC 4978), the stream could no longer be read and rewritten.
const ALWAYS_HIDDEN = ['COMPRESS=DEFLATE'];

/** Each hidden extension's commands, as client lines (tag stripped) that a server without it refuses. */
const NEEDS: Record<Hideable, RegExp> = {
  MOVE: /^(UID )?MOVE /i,
  UIDPLUS: /^UID EXPUNGE /i,
  ENABLE: /^ENABLE\b/i,
  CONDSTORE: /\(CONDSTORE\)|CHANGEDSINCE|UNCHANGEDSINCE|\bMODSEQ\b/i,
  QRESYNC: /\(QRESYNC|\bVANISHED\b/i,
  ESEARCH: /^(UID )?SEARCH RETURN /i,
  'LIST-STATUS': /^LIST .*RETURN \(.*STATUS/i,
  'SPECIAL-USE': /^XLIST |^LIST (\(.*SPECIAL-USE|.*RETURN \(.*SPECIAL-USE)|^CREATE .*\(USE /i,
};

const SPECIAL_USE_FLAGS = /\s?\\(All|Archive|Drafts|Flagged|Junk|Sent|Trash|Important)\b/gi;

export async function startImapProxy(options: ImapProxyOptions): Promise<ImapProxy> {
  const hidden = new Set<Hideable>(options.hide ?? []);
  if (hidden.has('CONDSTORE') || hidden.has('ENABLE')) hidden.add('QRESYNC');
  const stripped = new Set<string>([...hidden, ...ALWAYS_HIDDEN]);
  for (const cap of hidden) for (const also of IMPLIED[cap] ?? []) stripped.add(also);
  const commands: string[] = [];
  const refused: string[] = [];
  const sockets = new Set<Socket>();
  const clients = new Set<Socket>();

  const capabilities = (list: string) =>
    list
      .split(' ')
      .filter((cap) => !stripped.has(cap.toUpperCase()))
      .join(' ');

  const fromServer = (line: string): string | null => {
    let out = line.replace(
      /\[CAPABILITY ([^\]]*)\]/i,
      (_m, list: string) => `[CAPABILITY ${capabilities(list)}]`,
    );
    out = out.replace(
      /^(\* CAPABILITY )(.*)$/i,
      (_m, head: string, list: string) => head + capabilities(list),
    );
    if (options.stripUidNext && /^\* OK \[UIDNEXT \d+\]/i.test(out)) return null;
    if (hidden.has('UIDPLUS')) {
      if (/^\* OK \[COPYUID [^\]]*\]/i.test(out)) return null;
      out = out.replace(/\[(COPYUID|APPENDUID) [^\]]*\] ?/i, '');
    }
    if (hidden.has('CONDSTORE') && /^\* OK \[(HIGHESTMODSEQ|NOMODSEQ)\b/i.test(out)) return null;
    if (hidden.has('SPECIAL-USE')) {
      out = out.replace(/^(\* (?:LIST|LSUB) \()([^)]*)\)/i, (_m, head: string, flags: string) => {
        return `${head}${flags.replace(SPECIAL_USE_FLAGS, '').trim()})`;
      });
    }
    return out;
  };

  const fromClient = (line: string): string => {
    const m = /^(\S+) (.*)$/.exec(line);
    if (!m) return line;
    const [, tag, rest] = m as unknown as [string, string, string];
    const name = /^((?:UID )?[A-Za-z-]+)/.exec(rest)?.[1]?.toUpperCase();
    if (name) commands.push(name);
    for (const cap of hidden) {
      if (NEEDS[cap].test(rest)) {
        refused.push(`${name} (${cap})`);
        // Sent on as a command the server does not know: its BAD answer keeps the order of the answers.
        return `${tag} X-WITHOUT-${cap}`;
      }
    }
    return line;
  };

  const server: Server = createServer((client) => {
    const upstream = tcpConnect(options.upstream.port, options.upstream.host);
    sockets.add(client).add(upstream);
    clients.add(client);
    client.on('error', () => {});
    upstream.on('error', () => {});
    client.on(
      'data',
      framer(
        (line) => fromClient(line),
        (b) => upstream.write(b),
      ),
    );
    upstream.on(
      'data',
      framer(fromServer, (b) => client.write(b)),
    );
    client.on('close', () => {
      clients.delete(client);
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    host: '127.0.0.1',
    port: (server.address() as { port: number }).port,
    commands,
    refused,
    connections: () => clients.size,
    drop() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Splits a byte stream into CRLF lines and literals: each line goes through `rewrite` (null drops it), a
 * literal announced at the end of a line (`{n}` or `{n+}`) goes on byte for byte.
 */
function framer(
  rewrite: (line: string) => string | null,
  write: (b: Buffer) => void,
): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let literal = 0;
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const out: Buffer[] = [];
    framed(out);
    if (out.length > 0) write(Buffer.concat(out));
  };

  function framed(out: Buffer[]): void {
    for (;;) {
      if (literal > 0) {
        if (pending.length === 0) return;
        const take = Math.min(literal, pending.length);
        out.push(pending.subarray(0, take));
        pending = pending.subarray(take);
        literal -= take;
        continue;
      }
      const end = pending.indexOf('\r\n');
      if (end < 0) return;
      const line = pending.toString('latin1', 0, end);
      pending = pending.subarray(end + 2);
      const size = /\{(\d+)\+?\}$/.exec(line);
      if (size) literal = Number(size[1]);
      const rewritten = rewrite(line);
      if (rewritten !== null) out.push(Buffer.from(`${rewritten}\r\n`, 'latin1'));
    }
  }
}
