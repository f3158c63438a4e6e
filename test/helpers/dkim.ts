import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDnsFake } from './dns-fake.js';

// Senders' DKIM for the tests: messages signed as a real sender signs them (RFC 6376, relaxed/relaxed,
// rsa-sha256, written here independently of mailauth, which verifies them in the product), and a local
// DNS server on 127.0.0.1 that publishes the key at `<selector>._domainkey.<domain>` for every domain.
// One key per test run: globalSetup (or the e2e harness) makes it and puts its file in
// TEST_DKIM_KEY_FILE, which the test processes inherit.

export const TEST_SELECTOR = 'ig-test';
const SIGNED = ['from', 'to', 'subject', 'date', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post'];

/** The run's key file, made once (its path goes to process.env for the processes started after). */
export function ensureTestDkimKey(): string {
  const existing = process.env.TEST_DKIM_KEY_FILE;
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = path.join(tmpdir(), `inbox-genie-dkim-${process.pid}-${Date.now()}.pem`);
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  process.env.TEST_DKIM_KEY_FILE = file;
  return file;
}

let cachedKey: { file: string; pem: string } | null = null;
function privateKeyPem(): string {
  const file = ensureTestDkimKey();
  if (cachedKey?.file !== file) cachedKey = { file, pem: readFileSync(file, 'utf8') };
  return cachedKey.pem;
}

/** The TXT record a sender publishes for the run's key. */
export function dkimTxtRecord(): string {
  const spki = createPublicKey(createPrivateKey(privateKeyPem())).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${spki.toString('base64')}`;
}

const relaxedHeader = (name: string, value: string) =>
  `${name.toLowerCase()}:${value
    .replace(/\r\n(?=[ \t])/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/**
 * `raw` (CRLF lines) with a DKIM-Signature of `domain` (default: the From address's domain) prepended,
 * over the fields in `fields` that the message has (bottom-most instance of each name, as RFC 6376 §5.4.2).
 */
export function dkimSign(raw: string, options: { domain?: string; fields?: string[] } = {}): string {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const headers: Array<{ name: string; value: string }> = [];
  for (const line of head.split(/\r\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    headers.push({ name: line.slice(0, colon), value: line.slice(colon + 1) });
  }
  const from = headers.find((h) => h.name.toLowerCase() === 'from')?.value ?? '';
  const domain = options.domain ?? /@([^>\s]+)/.exec(from)?.[1]?.toLowerCase() ?? 'example.com';
  const wanted = options.fields ?? SIGNED;
  const picked: string[] = [];
  const names: string[] = [];
  const used = new Set<number>();
  for (const field of wanted) {
    for (let i = headers.length - 1; i >= 0; i--) {
      if (used.has(i) || headers[i]!.name.toLowerCase() !== field) continue;
      used.add(i);
      picked.push(relaxedHeader(headers[i]!.name, headers[i]!.value));
      names.push(field);
      break;
    }
  }
  const bh = createHash('sha256').update(relaxedBody(body)).digest('base64');
  const tags = `v=1; a=rsa-sha256; c=relaxed/relaxed; d=${domain}; s=${TEST_SELECTOR}; t=${Math.floor(Date.now() / 1000)}; h=${names.join(':')}; bh=${bh}; b=`;
  const data = `${picked.join('\r\n')}\r\n${relaxedHeader('DKIM-Signature', tags)}`;
  const b = sign('sha256', Buffer.from(data), privateKeyPem()).toString('base64');
  return `DKIM-Signature: ${tags}${b}\r\n${raw}`;
}

export interface DnsServer {
  /** DNS_SERVERS for the product. */
  address: string;
  stop(): Promise<void>;
}

/**
 * A DNS server answering TXT queries for `ig-test._domainkey.<any domain>` with the run's key, and
 * NXDOMAIN for everything else (as a sender without a key is seen).
 */
export async function startDnsServer(): Promise<DnsServer> {
  const txt = dkimTxtRecord();
  const fake = await startDnsFake((name) =>
    name.startsWith(`${TEST_SELECTOR}._domainkey.`) ? { TXT: [txt] } : undefined,
  );
  return { address: fake.address, stop: fake.stop };
}
