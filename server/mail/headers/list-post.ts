import { parseListUnsubscribe } from './list-unsubscribe.js';
import { parseMailto } from './mailto.js';

// RFC 2369 List-Post: `<mailto:list@host>` (possibly with other URIs, most preferred first), or `NO`
// when the list accepts no posts (an announcement list). The product reads only the first mailto
// addr-spec, to show a poster's mail with the list it came through ("via linux-kernel@vger.kernel.org").
// The value is the sender's text: it is read by the List-Unsubscribe parser (same bracket syntax,
// single pass, capped at its MAX_VALUE_LENGTH), and the address by the mailto parser, which accepts
// one plain addr-spec only.

/** The lowercased posting address of the list, or null for `NO`, no mailto, or nothing readable. */
export function parseListPost(value: string | null | undefined): string | null {
  if (!value) return null;
  for (const uri of parseListUnsubscribe([value]).mailto) {
    const parsed = parseMailto(uri);
    if (parsed.ok) return parsed.request.to.toLowerCase();
  }
  return null;
}
