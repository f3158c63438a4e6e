import { describe, expect, it } from 'vitest';
import { FLOODS, fill, within } from '#test/helpers/hostile-headers.js';
import { parseHeaderBlock } from './headers.js';
import { parseListPost } from './list-post.js';

describe('parseListPost', () => {
  it('reads the posting address of a discussion list', () => {
    expect(parseListPost('<mailto:linux-kernel@vger.kernel.org>')).toBe('linux-kernel@vger.kernel.org');
    // Mailman 2 and 3 forms; case is not meaningful for display and matching.
    expect(parseListPost('<mailto:Python-Dev@Python.org>')).toBe('python-dev@python.org');
    expect(parseListPost(' <mailto:list@lists.example.org> (Postings are moderated) ')).toBe(
      'list@lists.example.org',
    );
  });

  it('takes the first mailto, after any other URI the list names first', () => {
    expect(parseListPost('<https://lists.example.org/post>, <mailto:a@lists.example.org>')).toBe(
      'a@lists.example.org',
    );
    expect(parseListPost('<mailto:first@x.example>, <mailto:second@x.example>')).toBe('first@x.example');
  });

  it('drops the query of the mailto: only the addr-spec is kept', () => {
    expect(parseListPost('<mailto:list@x.example?subject=help>')).toBe('list@x.example');
  });

  it('finds nothing in NO, an empty value or a value without a usable mailto', () => {
    expect(parseListPost('NO')).toBeNull();
    expect(parseListPost('NO (posting not allowed on this list)')).toBeNull();
    expect(parseListPost('')).toBeNull();
    expect(parseListPost(null)).toBeNull();
    expect(parseListPost(undefined)).toBeNull();
    expect(parseListPost('<https://lists.example.org/post>')).toBeNull();
    // Not one plain addr-spec: refused, not repaired.
    expect(parseListPost('<mailto:"a b"@x.example>')).toBeNull();
    expect(parseListPost('<mailto:a@x.example%0d%0aBcc:%20b@y.example>')).toBeNull();
    expect(parseListPost('<mailto:a@127.0.0.1>')).toBeNull();
  });

  it('is read from the header block with the scan fields', () => {
    const fields = parseHeaderBlock(
      'From: Ann <ann@example.com>\r\nList-Id: <lkml.vger.kernel.org>\r\nList-Post: <mailto:\r\n linux-kernel@vger.kernel.org>\r\n\r\n',
    );
    // Unfolding keeps the folding space; RFC 2369 says to ignore whitespace inside the brackets.
    expect(fields.listPost).toBe('<mailto: linux-kernel@vger.kernel.org>');
    expect(parseListPost(fields.listPost)).toBe('linux-kernel@vger.kernel.org');
  });

  it('stops at the size cap: a mailto beyond it is not read', () => {
    expect(parseListPost(`${fill(' ', 20_000)}<mailto:late@x.example>`)).toBeNull();
  });

  it.each(Object.entries(FLOODS))('reads 1 MB of %s in linear time', (_, flood) => {
    within('parseListPost', () => parseListPost(flood));
    within('parseListPost after a mailto', () => parseListPost(`<mailto:a@x.example>, ${flood}`));
  });
});
