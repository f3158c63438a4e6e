import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { DnsResolver } from '#server/lib/dns-resolver.js';
import { parseFrom } from '#server/mail/headers/detect.js';
import { parseHeaderBlock } from '#server/mail/headers/headers.js';
import { isOneClick, parseListUnsubscribe } from '#server/mail/headers/list-unsubscribe.js';

// RFC 8058 §3.1: the one-click POST is made only for a message whose List-Unsubscribe and
// List-Unsubscribe-Post fields are covered by a valid DKIM signature of the sender's domain, so a forged
// message cannot steer the product's POST (docs/decisions/068-one-click-only-for-dkim-signed-headers.md).

export interface DkimVerdict {
  /** Whether the one-click POST to `uri` may be made. */
  ok: boolean;
  /** The signing domain of the signature that decided (or of the first one found). */
  domain: string | null;
  /** What the receipt records: "pass", or why not. */
  result: string;
}

const count = (keys: string, field: string) =>
  keys
    .toLowerCase()
    .split(':')
    .filter((k) => k.trim() === field).length;

/**
 * Reads `raw` (transiently: nothing of it is kept) and answers whether it vouches for a one-click POST to
 * `uri` from `sender`: the message is the sender's and carries that link with the one-click marker, and a
 * DKIM signature that passes, whose d= aligns with the From domain, signs every List-Unsubscribe and
 * List-Unsubscribe-Post field the message has (a field added above a signed one is not signed).
 */
export async function verifyOneClickSignature(
  raw: Buffer,
  sender: string,
  uri: string,
  resolver: DnsResolver,
): Promise<DkimVerdict> {
  const fields = parseHeaderBlock(raw);
  if (parseFrom(fields.from)?.address !== sender) {
    return { ok: false, domain: null, result: 'the newest message is not from this sender' };
  }
  const links = parseListUnsubscribe(fields.listUnsubscribe);
  if (!isOneClick(fields, links) || !links.https.includes(uri)) {
    return { ok: false, domain: null, result: 'the newest message does not offer this one-click link' };
  }
  const { results } = await dkimVerify(raw, { resolver, minBitLength: 1024 });
  // mailauth answers one result of status "none" for a message without a signature.
  if (results.every((r) => r.status?.result === 'none')) {
    return { ok: false, domain: null, result: 'no DKIM signature' };
  }
  for (const r of results) {
    if (r.status?.result !== 'pass' || !r.status.aligned) continue;
    // mailauth reports the signed fields (one name per signed instance) though its types leave it out.
    const keys = (r as { signingHeaders?: { keys?: string } }).signingHeaders?.keys ?? '';
    if (
      count(keys, 'list-unsubscribe') >= fields.listUnsubscribe.length &&
      count(keys, 'list-unsubscribe-post') >= fields.listUnsubscribePost.length
    ) {
      return { ok: true, domain: r.signingDomain ?? null, result: 'pass' };
    }
  }
  const first = results[0]!;
  const why =
    first.status?.result !== 'pass'
      ? `${first.status?.result ?? 'none'}${first.status?.comment ? ` (${first.status.comment})` : ''}`
      : !first.status.aligned
        ? 'pass, but not for the sender’s domain'
        : 'pass, but the List-Unsubscribe fields are not signed';
  return { ok: false, domain: first.signingDomain ?? null, result: why };
}
