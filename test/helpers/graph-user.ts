import { randomBytes } from 'node:crypto';
import { createGraphProvider, type GraphProviderOptions } from '#server/mail/graph/adapter.js';
import { microsoftBaseUrls } from '#server/mail/graph/client.js';
import type { MailProvider } from '#server/mail/provider.js';
import type { FakeMailbox, GraphFake } from './graph-fake.js';

// A fresh mailbox in the Graph fake per test, with a refresh token and the Outlook adapter for it
// (short timeouts so a failing test fails fast; `defaults` and per-call overrides on top).

export interface GraphTestMailbox {
  email: string;
  refreshToken: string;
  box: FakeMailbox;
  provider(overrides?: Partial<GraphProviderOptions>): MailProvider;
}

export function newGraphMailbox(
  fake: GraphFake,
  label: string,
  defaults: Partial<GraphProviderOptions> = {},
): GraphTestMailbox {
  const email = `${label}-${randomBytes(4).toString('hex')}@contoso.example`;
  const box = fake.addUser(email);
  const refreshToken = box.issueRefreshToken();
  return {
    email,
    refreshToken,
    box,
    provider: (overrides = {}) =>
      createGraphProvider({
        email,
        refreshToken,
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        ...microsoftBaseUrls(fake.url),
        timeoutMs: 3000,
        ...defaults,
        ...overrides,
      }),
  };
}
