import { createSocket, type Socket } from 'node:dgram';

// A small authoritative DNS server on 127.0.0.1 over UDP (RFC 1035 §4), answering from a zone the test
// writes: A, AAAA, MX, SRV (RFC 2782) and TXT records by name, or from a function of the name (the DKIM
// keys of test/helpers/dkim.ts, under any domain). A name the zone does not hold is NXDOMAIN; a
// name it holds without records of the asked type answers NOERROR with no answer, as a real server
// does. The product reaches it through DNS_SERVERS, so its lookups never leave the machine.

export interface SrvRecord {
  priority: number;
  weight: number;
  port: number;
  /** "." means "no such service at this domain" (RFC 2782, RFC 6186 §3.4). */
  target: string;
}

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  MX?: Array<{ priority: number; exchange: string }>;
  SRV?: SrvRecord[];
  /** Each a whole text, sent as strings of at most 255 bytes (RFC 1035 §3.3.14; a DKIM key is longer). */
  TXT?: string[];
}

export interface DnsFake {
  /** DNS_SERVERS for the product. */
  address: string;
  /** The records of `name` from now on (replacing what it had). */
  set(name: string, entry: ZoneEntry): void;
  /** Every question asked, as `TYPE name`. */
  questions: string[];
  stop(): Promise<void>;
}

const TYPES = { A: 1, AAAA: 28, MX: 15, SRV: 33, TXT: 16 } as const;
type RecordType = keyof typeof TYPES;

/** `zone`: records by name, or the records of a name (undefined: NXDOMAIN); `set` adds to the former. */
export async function startDnsFake(
  zone: Record<string, ZoneEntry> | ((name: string) => ZoneEntry | undefined) = {},
): Promise<DnsFake> {
  const records = new Map(
    typeof zone === 'function'
      ? []
      : Object.entries(zone).map(([name, entry]) => [name.toLowerCase(), entry]),
  );
  const lookup = (name: string) => records.get(name) ?? (typeof zone === 'function' ? zone(name) : undefined);
  const questions: string[] = [];
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    try {
      socket.send(answer(query, lookup, questions), peer.port, peer.address);
    } catch {
      // A malformed query gets no answer, as from a real server.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.unref();
  return {
    address: `127.0.0.1:${socket.address().port}`,
    set: (name, entry) => records.set(name.toLowerCase(), entry),
    questions,
    stop: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])),
    Buffer.from([0]),
  ]);
}

function rdataOf(type: RecordType, value: unknown): Buffer {
  if (type === 'A') return Buffer.from((value as string).split('.').map(Number));
  if (type === 'AAAA') return ipv6Bytes(value as string);
  if (type === 'TXT') {
    const text = value as string;
    const strings: Buffer[] = [];
    for (let i = 0; i < text.length; i += 255) {
      const chunk = Buffer.from(text.slice(i, i + 255), 'ascii');
      strings.push(Buffer.from([chunk.length]), chunk);
    }
    return Buffer.concat(strings);
  }
  if (type === 'MX') {
    const mx = value as { priority: number; exchange: string };
    const head = Buffer.alloc(2);
    head.writeUInt16BE(mx.priority, 0);
    return Buffer.concat([head, encodeName(mx.exchange)]);
  }
  const srv = value as SrvRecord;
  const head = Buffer.alloc(6);
  head.writeUInt16BE(srv.priority, 0);
  head.writeUInt16BE(srv.weight, 2);
  head.writeUInt16BE(srv.port, 4);
  return Buffer.concat([head, encodeName(srv.target)]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => {
    out.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  });
  return out;
}

function answer(query: Buffer, lookup: (name: string) => ZoneEntry | undefined, questions: string[]): Buffer {
  let offset = 12;
  const labels: string[] = [];
  while (query[offset]! > 0) {
    const length = query[offset]!;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += 1 + length;
  }
  offset += 1;
  const typeCode = query.readUInt16BE(offset);
  const question = query.subarray(12, offset + 4);
  const name = labels.join('.').toLowerCase();
  const type = (Object.keys(TYPES) as RecordType[]).find((t) => TYPES[t] === typeCode);
  questions.push(`${type ?? typeCode} ${name}`);
  const entry = lookup(name);
  const values: unknown[] = (type && entry?.[type]) || [];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // Response, authoritative, recursion desired and available; NXDOMAIN for a name the zone lacks.
  header.writeUInt16BE(0x8580 | (entry ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values.length, 6);
  const answers = values.map((value) => {
    const rdata = rdataOf(type!, value);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(typeCode, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([record, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}
