import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { type Subscription, subscriptionsResponseSchema } from '#contract/api.js';
import { plainDataSerializer } from './schemas.js';

// The list's answer is written by plainDataSerializer (fast-json-stringify from the zod schema) instead of
// zod's check and JSON.stringify: the two must write the same bytes for any answer the service builds.
describe('plainDataSerializer', () => {
  const fast = plainDataSerializer({ schema: subscriptionsResponseSchema });
  const zod = serializerCompiler({ schema: subscriptionsResponseSchema, method: 'GET', url: '/list' });

  const row = (over: Partial<Subscription>): Subscription => ({
    id: '0b7c4a52-7d1e-4f0e-9a55-3a1d5c2e9f10',
    address: 'news@acme.example',
    senderName: 'Acme Weekly',
    messageCount: 12,
    category: 'uncategorized',
    lastMessageAt: '2026-11-01T10:00:00.000Z',
    account: 'me@yahoo.com',
    ...over,
  });

  it('writes what zod writes, for every field set, unset and null', () => {
    const answers = [
      { data: [] },
      { data: [], nextCursor: null, total: 0 },
      {
        data: [
          row({}),
          row({
            lastMessageAt: null,
            unsubscribedAt: '2026-11-02T00:00:00.000Z',
            unsubscribeMethod: 'one-click',
            stillSending: true,
            readRate: 0.125,
            messagesPerMonth: 4.3,
            via: 'list@lists.example',
            category: 'unsubscribed',
          }),
          row({
            unsubscribedAt: null,
            unsubscribeMethod: null,
            readRate: null,
            via: null,
            stillSending: false,
          }),
          row({ readRate: 1, messagesPerMonth: 0, messageCount: 1e9 }),
          row({ blockLifted: true, movedToTrash: 42, restoredFromTrash: 0 }),
        ],
        nextCursor: 'eyJ2IjoxLCJpZCI6ImEifQ',
        total: 5000,
      },
    ];
    for (const answer of answers) expect(fast(answer)).toBe(zod(answer));
  });

  it('escapes what a sender writes the same way: quotes, controls, line separators, lone surrogates', () => {
    const names = [
      'Quote " and \\ backslash',
      'Tab\tnew\nline\r\u0000nul\u001f',
      'Line\u2028separator\u2029',
      'Lone \ud800 high and \udc00 low surrogates',
      'Emoji 📬 and accents é ü ß',
      '</script><script>alert(1)</script>',
    ];
    const answer = {
      data: names.map((senderName, i) => row({ senderName, address: `${senderName}@x${i}` })),
    };
    expect(fast(answer)).toBe(zod(answer));
    expect(JSON.parse(fast(answer)).data.map((r: Subscription) => r.senderName)).toEqual(
      JSON.parse(JSON.stringify(names)),
    );
  });

  it('leaves out fields the contract does not name', () => {
    const answer = { data: [{ ...row({}), secret: 'sealed', user_id: 'u1' }], total: 1, internal: true };
    expect(fast(answer)).toBe(zod(answer));
    expect(fast(answer)).not.toMatch(/sealed|user_id|internal/);
  });
});
