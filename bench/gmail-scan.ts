// npm run bench:gmail — the first scan of the same 50,000-message mailbox as bench:scan, on the
// Gmail emulator: the quota units the scan spends, and how long those units take at Google's
// per-user quota (15,000 units a minute), against one metadata get per message.
import { createGmailProvider } from '#server/mail/gmail/adapter.js';
import { type MessageSpec, startGoogleEmulator } from '#test/helpers/google-emulator.js';
import { daysAgo } from '#test/helpers/mail.js';

const TOTAL = Number(process.env.BENCH_MESSAGES ?? 50_000);
const SENDERS = 400;
const USER = 'bench@gmail.example';
const QUOTA_PER_MINUTE = 15_000;
const UNITS_PER_GET = 5;
const UNITS_PER_LIST_PAGE = 5;

function spec(i: number, sender: number): MessageSpec {
  const newsletter = sender % 8 !== 0;
  return {
    from: `Sender ${sender} <sender${sender}@domain${sender}.example>`,
    subject: `Message ${i} from sender ${sender}`,
    date: daysAgo(i % 700),
    body: newsletter ? 'News of the week. To unsubscribe, use the link below.' : 'See you on Sunday?',
    ...(newsletter
      ? {
          listUnsubscribe: `<https://domain${sender}.example/unsub?u=${i}>`,
          listUnsubscribePost: 'List-Unsubscribe=One-Click',
        }
      : {}),
  };
}

async function main(): Promise<void> {
  const emulator = await startGoogleEmulator();
  try {
    const { refreshToken } = await emulator.addUser(USER);
    console.log(`seeding ${TOTAL} messages from ${SENDERS} senders…`);
    for (let i = 0; i < TOTAL; i += 1000) {
      emulator.insert(
        USER,
        Array.from({ length: Math.min(1000, TOTAL - i) }, (_, k) => spec(i + k, ((i + k) * 7919) % SENDERS)),
      );
    }
    const provider = createGmailProvider({
      email: USER,
      refreshToken,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      baseUrl: emulator.baseUrl,
    });
    const started = performance.now();
    let messages = 0;
    const senders = new Set<string>();
    for await (const batch of provider.scan(null)) {
      messages += batch.messages.length;
      for (const m of batch.messages) if (m.fields.from) senders.add(m.fields.from);
    }
    const elapsed = performance.now() - started;
    const units = provider.quotaUnitsSpent();
    const naive = Math.ceil(TOTAL / 500) * UNITS_PER_LIST_PAGE + TOTAL * UNITS_PER_GET;
    console.log('');
    const expected = Array.from({ length: TOTAL }, (_, i) => ((i * 7919) % SENDERS) % 8 !== 0).filter(
      Boolean,
    ).length;
    console.log(
      `newsletter messages counted    ${messages} (exactly ${expected} in the mailbox; ${senders.size} senders)`,
    );
    if (messages !== expected) throw new Error('the Gmail scan did not count every newsletter message');
    console.log(`time on the emulator           ${(elapsed / 1000).toFixed(1)} s`);
    console.log(`quota units spent              ${units}  (${(units / SENDERS).toFixed(0)} per sender)`);
    console.log(
      `time at the real quota         ${((units / QUOTA_PER_MINUTE) * 60).toFixed(0)} s (15,000 units a minute)`,
    );
    console.log(
      `one get per message would cost ${naive} units, ${((naive / QUOTA_PER_MINUTE) * 60).toFixed(0)} s at the quota`,
    );
    console.log(
      `ratio                          ${(units / naive).toFixed(3)} of the one-get-per-message cost`,
    );
  } finally {
    await emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
