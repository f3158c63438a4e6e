import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '#server/lib/errors.js';
import { BAD_CURSOR_MESSAGE, decodeCursor, encodeCursor } from './cursor.js';

const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('the list cursor', () => {
  it('gives back the position it was made from, in its own order', () => {
    for (const [sort, value] of [
      ['newest', 1_700_000_000_000],
      ['newest', null],
      ['messages', 0],
      ['readRate', 1001],
      ['perMonth', 2_147_483_647],
    ] as const) {
      const position = { value, id: 'a7c0b0f2-1d9e-4c55-9f3e-0c1a2b3c4d5e' };
      const cursor = encodeCursor(sort, position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(sort, cursor)).toEqual(position);
    }
  });

  it('refuses a cursor of another order, garbled, forged or out of range', () => {
    // A messages cursor read in the newest order.
    expect(() => decodeCursor('newest', encodeCursor('messages', { value: 3, id: 'x' }))).toThrow(
      BAD_CURSOR_MESSAGE,
    );
    const bad = [
      'not a cursor!',
      '',
      'A'.repeat(513),
      encoded([1, 2]),
      encoded(null),
      encoded({ s: 'messages', v: 3 }),
      encoded({ s: 'messages', v: 3, i: '' }),
      encoded({ s: 'messages', v: 3, i: 'x', extra: 1 }),
      encoded({ s: 'messages', v: -1, i: 'x' }),
      encoded({ s: 'messages', v: 2_147_483_648, i: 'x' }),
      encoded({ s: 'messages', v: 1.5, i: 'x' }),
      encoded({ s: 'messages', v: null, i: 'x' }),
      encoded({ s: 'messages', v: 3, i: 'x'.repeat(129) }),
      encoded({ s: 'messages', v: 3, i: 'a\u0000b' }),
      Buffer.from('{"s":').toString('base64url'),
    ];
    for (const cursor of bad) {
      let error: unknown;
      try {
        decodeCursor('messages', cursor);
      } catch (e) {
        error = e;
      }
      expect(error, cursor).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toBe(BAD_CURSOR_MESSAGE);
    }
  });

  it('takes an undated position only in newest, and dates beyond 32 bits there', () => {
    expect(decodeCursor('newest', encoded({ s: 'newest', v: 8_640_000_000_000, i: 'x' }))).toEqual({
      value: 8_640_000_000_000,
      id: 'x',
    });
    expect(() => decodeCursor('newest', encoded({ s: 'newest', v: 2 ** 53, i: 'x' }))).toThrow(
      BAD_CURSOR_MESSAGE,
    );
  });
});
