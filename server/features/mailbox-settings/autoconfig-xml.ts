import type { ImapSettings } from './settings.js';

// Reads the IMAP server out of a mail client autoconfig file (Thunderbird's config-v1.1.xml, the format
// domains publish at autoconfig.<domain>): the first <incomingServer type="imap"> with an SSL or STARTTLS
// socket. The file comes from whoever runs the domain, so it is read as hostile text: capped in size,
// scanned with indexOf only (linear, no backtracking), and a file with a DTD is refused outright, so no
// entity is ever declared, let alone expanded (no "billion laughs", no external files). No XML library is
// involved: the three fields needed are plain text elements.

/** Larger files are not read at all; real ones are a few KiB. */
export const MAX_AUTOCONFIG_BYTES = 32 * 1024;

/** A host name as DNS writes it: letters, digits and hyphens in dot-separated labels, at least two. */
const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

export function isHostname(host: string): boolean {
  return (
    HOSTNAME.test(host) && !host.split('.').some((label) => label.startsWith('-') || label.endsWith('-'))
  );
}

function textOf(body: string, name: string): string | null {
  const open = body.indexOf(`<${name}>`);
  if (open < 0) return null;
  const start = open + name.length + 2;
  const close = body.indexOf(`</${name}>`, start);
  return close < 0 ? null : body.slice(start, close).trim();
}

/** SSL is TLS from the first byte; STARTTLS upgrades; "plain" would send the password in clear: skipped. */
function secureOf(socketType: string | null): boolean | null {
  if (socketType === 'SSL') return true;
  if (socketType === 'STARTTLS') return false;
  return null;
}

function serverOf(body: string, domain: string): ImapSettings | null {
  // %EMAILDOMAIN% is the one placeholder a host name may hold; anything else left over is refused below.
  const host = (textOf(body, 'hostname') ?? '').split('%EMAILDOMAIN%').join(domain).toLowerCase();
  const portText = textOf(body, 'port') ?? '';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  const secure = secureOf(textOf(body, 'socketType'));
  if (!isHostname(host) || !(port >= 1 && port <= 65535) || secure === null) return null;
  return { host, port, secure };
}

/** The IMAP server the file names for addresses at `domain`, or null (none, or a file not to be read). */
export function parseAutoconfig(xml: string, domain: string): ImapSettings | null {
  if (xml.length > MAX_AUTOCONFIG_BYTES) return null;
  if (xml.includes('<!DOCTYPE') || xml.includes('<!ENTITY')) return null;
  let from = 0;
  for (;;) {
    const open = xml.indexOf('<incomingServer', from);
    if (open < 0) return null;
    const tagEnd = xml.indexOf('>', open);
    const close = tagEnd < 0 ? -1 : xml.indexOf('</incomingServer>', tagEnd);
    if (close < 0) return null;
    from = close;
    const tag = xml.slice(open, tagEnd);
    if (!tag.includes('type="imap"') && !tag.includes("type='imap'")) continue;
    const server = serverOf(xml.slice(tagEnd + 1, close), domain);
    if (server) return server;
  }
}
