import { prettifyError, type z } from 'zod';
import {
  activityQuerySchema,
  activityResponseSchema,
  addMailboxBodySchema,
  authResponseSchema,
  billingStateSchema,
  blockingBodySchema,
  blogListResponseSchema,
  blogPostSchema,
  brandsResponseSchema,
  bulkActionBodySchema,
  bulkStartedSchema,
  bulkStatusSchema,
  changePasswordBodySchema,
  checkMailboxBodySchema,
  checkMailboxResponseSchema,
  codeBodySchema,
  confirmEmailBodySchema,
  contactBodySchema,
  csrfTokenResponseSchema,
  dataExportSchema,
  deleteSenderRuleResponseSchema,
  emailAccountsResponseSchema,
  emailStatusSchema,
  errorBodySchema,
  errorDetailsSchema,
  forgotPasswordBodySchema,
  insightsResponseSchema,
  keepBodySchema,
  mailboxFoldersQuerySchema,
  mailboxFoldersResponseSchema,
  mailboxSettingsQuerySchema,
  mailboxSettingsResponseSchema,
  messageResponseSchema,
  messagesBySenderBodySchema,
  passkeyAuthenticationBodySchema,
  passkeyListSchema,
  passkeyRegistrationBodySchema,
  passkeySchema,
  paymentLinkBodySchema,
  pricesResponseSchema,
  publicConfigSchema,
  putScreenerBodySchema,
  putScreenerResponseSchema,
  putSenderRuleBodySchema,
  putSenderRuleResponseSchema,
  recoveryCodesSchema,
  removeMailboxBodySchema,
  reportPreviewSchema,
  resetPasswordBodySchema,
  senderRulesResponseSchema,
  sessionListSchema,
  settingsSchema,
  settingsUpdateSchema,
  signinBodySchema,
  signinResponseSchema,
  signupBodySchema,
  statusResponseSchema,
  subscriptionListResponseSchema,
  subscriptionMessagesQuerySchema,
  subscriptionMessagesResponseSchema,
  subscriptionRefBodySchema,
  subscriptionSchema,
  subscriptionsQuerySchema,
  subscriptionsResponseSchema,
  totpSetupSchema,
  totpStatusSchema,
  undoActivityResponseSchema,
  unsubscribeResultSchema,
  urlResponseSchema,
  webauthnOptionsSchema,
} from '#contract/api.js';
import { APP_PASSWORD_PROVIDERS, type AppPasswordProvider } from '#contract/providers.js';

// The JSON API as the tests call it: each route (`METHOD /path`, path parameters as the server writes
// them) with its success status and the contract's schemas of its body, query and answer. The typed
// client (Client.call in app.ts) builds its requests from it and checks and types each answer with it
// (docs/decisions/095-typed-test-client.md).
//
// The contract (contract/routes.ts) holds the paths only; which schema answers which route is written in
// the server's route modules. This table repeats that pairing from the contract's own schema objects, and
// test/http/routes-table.int.test.ts fails when it names a route the app does not have, a schema the route
// does not declare, or misses a route that answers JSON, so it cannot drift unnoticed.

/** What one route takes and answers. `status`: its success code; `response`: the answer at that code. */
export interface RouteSpec {
  status: 200 | 202;
  response: z.ZodType;
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters, in the order of the path's `:name`s. */
  params?: readonly string[];
  /**
   * The schema the server declares when it is not `response`: GET /get-unsubscribe-emails declares the
   * union of its two shapes, and the table gives each shape its own key.
   */
  declared?: z.ZodType;
}

const ok = <R extends z.ZodType, O extends Omit<RouteSpec, 'status' | 'response'> = object>(
  response: R,
  other?: O,
) => ({ status: 200 as const, response, ...(other as O) });

const addMailboxRoutes = Object.fromEntries(
  APP_PASSWORD_PROVIDERS.map((p) => [
    `POST /auth/${p}`,
    ok(authResponseSchema, { body: addMailboxBodySchema(p) }),
  ]),
) as {
  [P in AppPasswordProvider as `POST /auth/${P}`]: {
    status: 200;
    response: typeof authResponseSchema;
    body: ReturnType<typeof addMailboxBodySchema>;
  };
};

export const ROUTES = {
  // Public
  'GET /csrf-token': ok(csrfTokenResponseSchema),
  'GET /healthz': ok(statusResponseSchema),
  'GET /get-public-config': ok(publicConfigSchema),
  'POST /send-email': ok(messageResponseSchema, { body: contactBodySchema }),
  'GET /get-prices': ok(pricesResponseSchema),
  'GET /get-blog-posts': ok(blogListResponseSchema),
  'GET /get-blog-post/:id': ok(blogPostSchema, { params: ['id'] as const }),

  // Accounts and sign-in
  'GET /signin-status/': ok(statusResponseSchema),
  'POST /auth/signup': ok(authResponseSchema, { body: signupBodySchema }),
  'POST /auth/signin': ok(signinResponseSchema, { body: signinBodySchema }),
  'POST /auth/logout': ok(messageResponseSchema),
  'POST /auth/forgot-password': ok(messageResponseSchema, { body: forgotPasswordBodySchema }),
  'POST /auth/verify-email': ok(authResponseSchema, { body: confirmEmailBodySchema }),
  'POST /auth/reset-password': ok(messageResponseSchema, { body: resetPasswordBodySchema }),
  'GET /auth/email-verification': ok(emailStatusSchema),
  'POST /auth/email-verification': ok(messageResponseSchema),
  'GET /subscription-status/': ok(statusResponseSchema),
  'GET /get-settings': ok(settingsSchema),
  'PUT /update-settings': ok(settingsSchema, { body: settingsUpdateSchema }),
  'GET /report/preview': ok(reportPreviewSchema),
  'DELETE /delete-account': ok(messageResponseSchema),

  // Second factors and sessions
  'POST /auth/signin/totp': ok(authResponseSchema, { body: codeBodySchema }),
  'GET /auth/totp': ok(totpStatusSchema),
  'POST /auth/totp/setup': ok(totpSetupSchema),
  'POST /auth/totp/enable': ok(recoveryCodesSchema, { body: codeBodySchema }),
  'DELETE /auth/totp': ok(messageResponseSchema, { body: codeBodySchema }),
  'GET /auth/passkeys': ok(passkeyListSchema),
  'POST /auth/passkeys/registration-options': ok(webauthnOptionsSchema),
  'POST /auth/passkeys/registration': ok(passkeySchema, { body: passkeyRegistrationBodySchema }),
  'POST /auth/passkeys/authentication-options': ok(webauthnOptionsSchema),
  'POST /auth/passkeys/authentication': ok(authResponseSchema, { body: passkeyAuthenticationBodySchema }),
  'DELETE /auth/passkeys/:id': ok(messageResponseSchema, { params: ['id'] as const }),
  'GET /account/sessions': ok(sessionListSchema),
  'DELETE /account/sessions/:id': ok(messageResponseSchema, { params: ['id'] as const }),
  'POST /account/sessions/revoke-others': ok(messageResponseSchema),
  'POST /account/password': ok(messageResponseSchema, { body: changePasswordBodySchema }),

  // Mailboxes
  ...addMailboxRoutes,
  'GET /get-email-accounts': ok(emailAccountsResponseSchema),
  'GET /mailbox-settings': ok(mailboxSettingsResponseSchema, { query: mailboxSettingsQuerySchema }),
  'DELETE /delete-email-account': ok(messageResponseSchema, { body: removeMailboxBodySchema }),
  'POST /mailboxes/check': {
    status: 202 as const,
    response: checkMailboxResponseSchema,
    body: checkMailboxBodySchema,
  },

  // Subscriptions: the list (one key per shape of its answer), the actions on a sender, its messages
  'GET /get-unsubscribe-emails': ok(subscriptionsResponseSchema, {
    query: subscriptionsQuerySchema,
    declared: subscriptionListResponseSchema,
  }),
  'GET /get-unsubscribe-emails?group=brand': ok(brandsResponseSchema, {
    query: subscriptionsQuerySchema,
    declared: subscriptionListResponseSchema,
  }),
  'POST /keep-subscription': ok(subscriptionSchema, { body: keepBodySchema }),
  'POST /unsubscribe': ok(unsubscribeResultSchema, { body: blockingBodySchema }),
  'POST /manual-unsubscribe': ok(subscriptionSchema, { body: subscriptionRefBodySchema }),
  'POST /block-subscription': ok(subscriptionSchema, { body: blockingBodySchema }),
  'POST /review-subscription': ok(subscriptionSchema, { body: subscriptionRefBodySchema }),
  'POST /unblock-subscription': ok(subscriptionSchema, { body: subscriptionRefBodySchema }),
  'GET /get-subscriptions/:id': ok(subscriptionMessagesResponseSchema, {
    params: ['id'] as const,
    query: subscriptionMessagesQuerySchema,
  }),
  'POST /get-messages-by-sender-address': ok(subscriptionMessagesResponseSchema, {
    body: messagesBySenderBodySchema,
  }),

  // Bulk actions
  'POST /bulk-action': { status: 202 as const, response: bulkStartedSchema, body: bulkActionBodySchema },
  'GET /bulk-action/:bulkId': ok(bulkStatusSchema, { params: ['bulkId'] as const }),

  // Sender rules and the Screener
  'GET /sender-rules': ok(senderRulesResponseSchema),
  'PUT /sender-rules/:subscriptionId': ok(putSenderRuleResponseSchema, {
    params: ['subscriptionId'] as const,
    body: putSenderRuleBodySchema,
  }),
  'DELETE /sender-rules/:subscriptionId': ok(deleteSenderRuleResponseSchema, {
    params: ['subscriptionId'] as const,
  }),
  'GET /mailbox-folders': ok(mailboxFoldersResponseSchema, { query: mailboxFoldersQuerySchema }),
  'PUT /screener': ok(putScreenerResponseSchema, { body: putScreenerBodySchema }),

  // The activity history
  'GET /activity': ok(activityResponseSchema, { query: activityQuerySchema }),
  'POST /activity/:id/undo': ok(undoActivityResponseSchema, { params: ['id'] as const }),

  // Billing, export, insights
  'POST /get-monthly-payment-link': ok(urlResponseSchema, { body: paymentLinkBodySchema }),
  'POST /get-yearly-payment-link': ok(urlResponseSchema, { body: paymentLinkBodySchema }),
  'POST /get-billing-portal-link': ok(urlResponseSchema, { body: paymentLinkBodySchema }),
  'GET /get-billing': ok(billingStateSchema),
  'GET /export': ok(dataExportSchema),
  'GET /insights': ok(insightsResponseSchema),
} satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;

/** The answer of `route` at its success status, as the contract's schema types it. */
export type AnswerOf<K extends RouteKey> = z.output<Routes[K]['response']>;
/** The body `route` takes, as the contract's schema reads it (its input type). */
export type BodyOf<K extends RouteKey> = Routes[K] extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;
/** The query `route` takes (or a raw query string, for values the schema is meant to refuse). */
export type QueryOf<K extends RouteKey> = Routes[K] extends { query: infer Q extends z.ZodType }
  ? Partial<Record<keyof z.input<Q>, string | number | boolean>>
  : never;
/** The path parameters `route` takes, by name. */
export type ParamsOf<K extends RouteKey> = Routes[K] extends { params: readonly (infer P extends string)[] }
  ? Record<P, string>
  : never;

/** Every error answer: `{message}` and the details the contract names (contract/api/shared.ts). */
export const errorAnswerSchema = errorBodySchema.extend(errorDetailsSchema.shape);
export type ErrorAnswer = z.output<typeof errorAnswerSchema>;

/** The statuses of refusals a test may expect from a route of the table. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503;

/** How Client.call builds a request of `route`. */
export interface CallOptions<K extends RouteKey> {
  /** The path's `:name`s (each encoded). */
  params?: ParamsOf<K>;
  body?: BodyOf<K>;
  /** An object (each value encoded), or a raw query string sent as it is, `?` optional. */
  query?: QueryOf<K> | string;
  headers?: Record<string, string>;
  /** false: leave the CSRF header out (it is sent on every other non-GET call). */
  csrf?: boolean;
}

/** The method and URL of a call of `route`: its path with `params` in it, its fixed query and `query`. */
export function requestOf<K extends RouteKey>(
  route: K,
  options: CallOptions<K> = {},
): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string } {
  const [method, target] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
  const [pattern, fixed] = target.split('?') as [string, string | undefined];
  const params = (options.params ?? {}) as Record<string, string | undefined>;
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const parts = fixed ? [fixed] : [];
  if (typeof options.query === 'string') {
    const raw = options.query.replace(/^\?/, '');
    if (raw) parts.push(raw);
  } else {
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return { method, url: parts.length ? `${path}?${parts.join('&')}` : path };
}

/**
 * `body` (an answer's JSON) checked with `schema` and typed by it; a body the schema refuses fails the test,
 * naming `what` and what did not match. The body itself is returned, not zod's copy, which would leave out
 * the fields the schema does not name: a test's `toEqual` still sees everything the server sent. (Answer
 * schemas describe JSON as it is sent, without transforms, so the two have the same values.)
 */
export function parseAnswer<S extends z.ZodType>(body: unknown, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `${what}: the answer is not what the contract describes:\n${prettifyError(parsed.error)}\n${JSON.stringify(body)?.slice(0, 1000)}`,
    );
  }
  return body as z.output<S>;
}
