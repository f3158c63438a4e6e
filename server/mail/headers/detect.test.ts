import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { corpusBlocks } from '#test/helpers/hostile-headers.js';
import { capName, detectSubscription, MAX_NAME_LENGTH, parseFrom, simpleMailbox } from './detect.js';
import { type HeaderFields, headerFieldsFromPairs, parseHeaderBlock } from './headers.js';

describe('parseFrom', () => {
  it.each([
    ['Ann Example <Ann@Example.COM>', 'ann@example.com', 'Ann Example'],
    [
      '"Der Abend: Stimme des Westens" <abend@example.de>',
      'abend@example.de',
      'Der Abend: Stimme des Westens',
    ],
    [
      '=?utf-8?Q?The=20Heretic=20=28Pascal=20Finette=29?= <hello@example.me>',
      'hello@example.me',
      'The Heretic (Pascal Finette)',
    ],
    ['"=?ISO-8859-1?Q?=D6AMTC?=" <club@example.at>', 'club@example.at', 'ÖAMTC'],
    [
      'IBJ =?ISO-2022-JP?B?GyRCJVUlaSVzJUElYyUkJTo7dkwzNkkbKEI=?= <info@example.jp>',
      'info@example.jp',
      'IBJ フランチャイズ事務局',
    ],
    ['=?iso-8859-1?Q?Ranns=F3knastofa_=ED?=\t<rikk@example.is>', 'rikk@example.is', 'Rannsóknastofa í'],
    ['tyra3l@example.com (Ferenc Kovacs)', 'tyra3l@example.com', 'Ferenc Kovacs'],
    [
      'Jason Lee (=?GB2312?Q?=C0=EE=D5=B9=B7=E6?=) <Jason_Lee@example.com>',
      'jason_lee@example.com',
      'Jason Lee',
    ],
    ['<info@example.com>', 'info@example.com', ''],
    ['patchwork-bot+netdevbpf@example.org', 'patchwork-bot+netdevbpf@example.org', ''],
    ['Katjes | Online-Shop <shop@example.de>', 'shop@example.de', 'Katjes | Online-Shop'],
    [
      '"Marcus via USRP-users" <usrp@lists.example.com>, other@example.com',
      'usrp@lists.example.com',
      'Marcus via USRP-users',
    ],
    ['  Spaced   Out\t Name   <s@example.com>', 's@example.com', 'Spaced Out Name'],
  ])('%s', (raw, address, name) => {
    expect(parseFrom(raw)).toEqual({ address, name });
  });

  it('returns null when there is no usable address', () => {
    expect(parseFrom(null)).toBeNull();
    expect(parseFrom(undefined)).toBeNull();
    expect(parseFrom('')).toBeNull();
    expect(parseFrom('   ')).toBeNull();
    expect(parseFrom('Just A Name')).toBeNull();
    expect(parseFrom('MAILER-DAEMON')).toBeNull();
    expect(parseFrom('Undisclosed recipients:;')).toBeNull();
    expect(parseFrom('Broken <@>')).toBeNull();
    expect(parseFrom('Half <user@>')).toBeNull();
  });

  it('skips a leading entry without an address', () => {
    expect(parseFrom('Nobody:; Real <real@example.com>')).toEqual({
      address: 'real@example.com',
      name: 'Real',
    });
  });

  it('cuts a huge display name to 256 characters and still finds the address after it', () => {
    const name = 'N'.repeat(200_000);
    expect(parseFrom(`"${name}" <big@example.com>`)).toEqual({
      address: 'big@example.com',
      name: 'N'.repeat(MAX_NAME_LENGTH),
    });
    expect(parseFrom(`${'word '.repeat(50_000)}<plain@example.com>`)).toEqual({
      address: 'plain@example.com',
      name: 'word '.repeat(60).slice(0, MAX_NAME_LENGTH),
    });
    const encoded = parseFrom(`${'=?utf-8?q?=C3=A9?= '.repeat(20_000)}<enc@example.com>`);
    expect(encoded?.address).toBe('enc@example.com');
    expect(encoded?.name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
  });

  it('cuts a name on a character boundary, never inside a surrogate pair', () => {
    const name = `${'a'.repeat(MAX_NAME_LENGTH - 1)}😀 rest`;
    expect(parseFrom(`"${name}" <e@example.com>`)?.name).toBe('a'.repeat(MAX_NAME_LENGTH - 1));
    expect(capName('😀'.repeat(200))).toBe('😀'.repeat(MAX_NAME_LENGTH / 2));
    expect(capName('short')).toBe('short');
  });

  it('refuses an address longer than a mailbox can be', () => {
    expect(parseFrom(`<${'a'.repeat(400)}@example.com>`)).toBeNull();
    expect(parseFrom(`<${'a'.repeat(64)}@${'d'.repeat(240)}.example>`)?.address).toHaveLength(64 + 1 + 248);
  });
});

function fields(overrides: Partial<HeaderFields>): HeaderFields {
  return { ...headerFieldsFromPairs([{ name: 'From', value: 'News <news@example.com>' }]), ...overrides };
}

describe('simpleMailbox', () => {
  /** What the general parser makes of a value: the one mailbox, when it finds exactly one. */
  const general = (text: string) => {
    const all = addressparser(text, { flatten: true });
    return all.length === 1 ? { address: all[0]!.address, name: all[0]!.name } : null;
  };

  it('reads the common shapes as the address parser does', () => {
    for (const text of [
      'Sender 12 <sender12@domain12.example>',
      ' J. Doe  <J@X.com> ',
      'Name<a@b>',
      '<a@b>',
      'a+b@c.d',
      '=?UTF-8?B?w6k=?= <a@b.c>',
      "O'Neil <o@x>",
    ]) {
      expect(simpleMailbox(text), text).not.toBeNull();
      expect(simpleMailbox(text), text).toEqual(general(text));
    }
  });

  it('leaves quotes, comments, groups, several addresses and odd addresses to the parser', () => {
    for (const text of [
      '"Doe, J" <j@x>',
      'j@x (J Doe)',
      'Team: a@b, c@d;',
      'a@b, c@d',
      'a@b <c@d>',
      'Name <a b@c>',
      'N <a@b> x',
      'N <<a@b>>',
      'Name <a@@b>',
      'MAILER-DAEMON',
      '',
    ])
      expect(simpleMailbox(text), text).toBeNull();
  });

  it('agrees with the parser on every From of the corpus and on generated values it accepts', () => {
    const values = corpusBlocks.map((b) => parseHeaderBlock(Buffer.from(b, 'latin1')).from ?? '');
    const alphabet = [...'abZ0. \t@<>"(),;:\\[]!#=?\'é-_+', '\u00a0', '\n', '\u2028', '\u3000'];
    const bases = [
      'Sender 12 <s12@d12.example>',
      'a@b.c',
      'J. Doe <j@x.com>',
      '<a@b>',
      '=?UTF-8?B?w6k=?= <a@b.c>',
    ];
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 20_000; round++) {
      const chars = [...bases[random(bases.length)]!];
      for (let k = 1 + random(3); k > 0; k--) {
        const at = random(chars.length + 1);
        const kind = random(3);
        const c = alphabet[random(alphabet.length)]!;
        if (kind === 0) chars.splice(at, 1);
        else if (kind === 1) chars.splice(at, 0, c);
        else chars[at] = c;
      }
      values.push(chars.join(''));
    }
    let accepted = 0;
    for (const text of values) {
      const fast = simpleMailbox(text);
      if (fast === null) continue;
      accepted++;
      expect(fast, JSON.stringify(text)).toEqual(general(text));
    }
    expect(accepted).toBeGreaterThan(2_000);
  });
});

describe('detectSubscription', () => {
  it('calls a message with a usable List-Unsubscribe a newsletter and a subscription', () => {
    const d = detectSubscription(
      fields({
        listUnsubscribe: ['<mailto:u@example.com>, <https://example.com/u>'],
        listUnsubscribePost: ['List-Unsubscribe=One-Click'],
      }),
    );
    // The detection is read through getters (it parses List-Unsubscribe on first use): every one of them.
    const { isSubscription, isNewsletter, listSignal, isListMail, oneClick, httpsUrls, mailto, sender } = d;
    expect({
      isSubscription,
      isNewsletter,
      listSignal,
      isListMail,
      oneClick,
      httpsUrls,
      mailto,
      sender,
    }).toEqual({
      isSubscription: true,
      isNewsletter: true,
      listSignal: false,
      isListMail: true,
      oneClick: true,
      httpsUrls: ['https://example.com/u'],
      mailto: ['mailto:u@example.com'],
      sender: { address: 'news@example.com', name: 'News' },
    });
  });

  it('treats List-Id or Precedence bulk/list (any case) as a list signal', () => {
    for (const overrides of [
      { listId: '<x.example.com>' },
      { precedence: 'bulk' },
      { precedence: 'Bulk' },
      { precedence: ' LIST ' },
    ]) {
      const d = detectSubscription(fields(overrides));
      expect(d.listSignal, JSON.stringify(overrides)).toBe(true);
      expect(d.isSubscription).toBe(true);
      expect(d.isNewsletter).toBe(false);
    }
  });

  it('ignores other Precedence values and blank List-Id', () => {
    for (const overrides of [{ precedence: 'junk' }, { precedence: 'klub' }, { listId: '  ' }]) {
      const d = detectSubscription(fields(overrides));
      expect(d.listSignal, JSON.stringify(overrides)).toBe(false);
      expect(d.isSubscription).toBe(false);
    }
  });

  it('does not count a List-Unsubscribe that holds no usable URI', () => {
    const d = detectSubscription(
      fields({ listUnsubscribe: ['<ftp://example.com/u>', 'please write to us'] }),
    );
    expect(d.isNewsletter).toBe(false);
    expect(d.isSubscription).toBe(false);
    expect(d.httpsUrls).toEqual([]);
    expect(d.mailto).toEqual([]);
  });

  it('is not one-click with the marker but only a mailto', () => {
    const d = detectSubscription(
      fields({
        listUnsubscribe: ['<mailto:u@example.com>'],
        listUnsubscribePost: ['List-Unsubscribe=One-Click'],
      }),
    );
    expect(d.isNewsletter).toBe(true);
    expect(d.oneClick).toBe(false);
  });

  it('cannot make a subscription without a sender to attach it to', () => {
    const d = detectSubscription(
      fields({ from: 'Undisclosed recipients:;', listUnsubscribe: ['<https://example.com/u>'] }),
    );
    expect(d.sender).toBeNull();
    expect(d.isNewsletter).toBe(true);
    expect(d.isSubscription).toBe(false);
  });

  it('finds nothing in a personal message', () => {
    const d = detectSubscription(headerFieldsFromPairs([{ name: 'From', value: 'Friend <f@example.com>' }]));
    expect(d.isSubscription).toBe(false);
    expect(d.isNewsletter).toBe(false);
    expect(d.listSignal).toBe(false);
    expect(d.oneClick).toBe(false);
  });
});
