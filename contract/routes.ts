// Paths of the API (docs/product.md §7) and of the screens (§2). The API lives at the site root,
// beside the SPA; the server answers GET requests for unknown paths with the SPA.

export const API = {
  csrfToken: '/csrf-token',
  signup: '/auth/signup',
  signin: '/auth/signin',
  logout: '/auth/logout',
  forgotPassword: '/auth/forgot-password',
  resetPassword: '/auth/reset-password',
  /**
   * The link mailed at sign-up: GET only leads to the confirm screen (mail scanners fetch links); POST
   * {token, password?} proves the address. GET status and POST resend of the signed-in user: emailVerification.
   */
  verifyEmail: '/auth/verify-email',
  /** The second step of a sign-in with two-step sign-in on: POST {code}. */
  signinTotp: '/auth/signin/totp',
  /** GET status, DELETE {code}; setup and enable below (docs/decisions/091-second-factors-passkeys-and-sessions.md). */
  totp: '/auth/totp',
  totpSetup: '/auth/totp/setup',
  totpEnable: '/auth/totp/enable',
  passkeys: '/auth/passkeys',
  passkey: (id: string) => `/auth/passkeys/${encodeURIComponent(id)}`,
  passkeyRegistrationOptions: '/auth/passkeys/registration-options',
  passkeyRegistration: '/auth/passkeys/registration',
  passkeyAuthenticationOptions: '/auth/passkeys/authentication-options',
  passkeyAuthentication: '/auth/passkeys/authentication',
  sessions: '/account/sessions',
  session: (id: string) => `/account/sessions/${encodeURIComponent(id)}`,
  revokeOtherSessions: '/account/sessions/revoke-others',
  /** POST {currentPassword, newPassword}: keeps this session, ends the others. */
  changePassword: '/account/password',
  emailVerification: '/auth/email-verification',
  google: '/auth/google',
  outlook: '/auth/outlook',
  signinStatus: '/signin-status/',
  subscriptionStatus: '/subscription-status/',
  /** Plans and billing (docs/product.md §7): prices, Checkout and portal links, the Billing screen's state. */
  prices: '/get-prices',
  monthlyPaymentLink: '/get-monthly-payment-link',
  yearlyPaymentLink: '/get-yearly-payment-link',
  billingPortalLink: '/get-billing-portal-link',
  billing: '/get-billing',
  /** Stripe's webhook: signed events, no session, no CSRF token. */
  stripeWebhook: '/stripe/webhook',
  /** Where Checkout's success URL and the portal's return URL lead: syncs the plan, then redirects. */
  checkoutReturn: '/stripe/checkout-return',
  portalReturn: '/stripe/portal-return',
  deleteAccount: '/delete-account',
  getSettings: '/get-settings',
  updateSettings: '/update-settings',
  /** The weekly report's RFC 8058 one-click unsubscribe (?token=): POST turns it off, GET shows a page. */
  reportUnsubscribe: '/report/unsubscribe',
  /** GET: the signed-in user's report as it would be sent now, and when it is sent (nothing is mailed). */
  reportPreview: '/report/preview',
  /** Everything stored about the user (JSON), and the subscription list (CSV): downloads. */
  exportJson: '/export',
  exportCsv: '/export.csv',
  /** The Insights screen's figures (contract/api/insights.ts). */
  insights: '/insights',
  sendEmail: '/send-email',
  publicConfig: '/get-public-config',
  /** POST /auth/{provider} with an app-specific password. */
  addMailbox: (provider: string) => `/auth/${provider}`,
  emailAccounts: '/get-email-accounts',
  deleteEmailAccount: '/delete-email-account',
  /** POST {email}: check one mailbox now (its banner's Retry, Email Accounts' "Check now"). */
  checkMailbox: '/mailboxes/check',
  /** GET ?email=: the IMAP server suggested for an address at "another IMAP host" (decision 103). */
  mailboxSettings: '/mailbox-settings',
  subscriptions: '/get-unsubscribe-emails',
  keepSubscription: '/keep-subscription',
  unsubscribe: '/unsubscribe',
  manualUnsubscribe: '/manual-unsubscribe',
  blockSubscription: '/block-subscription',
  /**
   * Undo (`{subscriptionId}` → the updated subscription): back to the review list (undoes a Keep), and
   * a block lifted with the mail it trashed moved back to where it was (undoes a Block).
   */
  reviewSubscription: '/review-subscription',
  unblockSubscription: '/unblock-subscription',
  /** Many senders at once: POST starts one (202 {bulkId}), GET reads how far it has come. */
  bulkAction: '/bulk-action',
  bulkActionStatus: (bulkId: string) => `/bulk-action/${encodeURIComponent(bulkId)}`,
  messagePreview: '/get-message-preview',
  messagesBySender: '/get-messages-by-sender-address',
  subscriptionMessages: (id: string) => `/get-subscriptions/${encodeURIComponent(id)}`,
  /** Sender rules (contract/api/rules.ts): GET all; PUT and DELETE one, by its subscription. */
  senderRules: '/sender-rules',
  senderRule: (subscriptionId: string) => `/sender-rules/${encodeURIComponent(subscriptionId)}`,
  /** GET ?email=: the folders a rule can file a mailbox's mail into. */
  mailboxFolders: '/mailbox-folders',
  /** PUT {email, enabled}: the Screener of one mailbox. */
  screener: '/screener',
  /** GET: what the product did to the user's mail, newest first; POST …/:id/undo undoes one. */
  activity: '/activity',
  activityUndo: (id: string) => `/activity/${encodeURIComponent(id)}/undo`,
  health: '/healthz',
  /** The blog (docs/product.md §7): every post's card, and one post with its markdown. */
  blogPosts: '/get-blog-posts',
  blogPost: (id: string) => `/get-blog-post/${encodeURIComponent(id)}`,
} as const;

export const SCREENS = {
  home: '/',
  signin: '/signin',
  signup: '/signup',
  signinPassword: '/signin/password',
  createAccount: '/create-account',
  addMailbox: '/add-mailbox',
  resetPassword: '/reset-password',
  resetPasswordConfirm: '/reset-password/confirm',
  resetPasswordSent: '/reset-password/sent',
  /** The sign-up mail's link: a page with a Confirm button (and the password when not signed in). */
  confirmEmail: '/confirm-email',
  /** The second step of a sign-in (password, Google or Microsoft) with two-step sign-in on. */
  signinTotp: '/signin/code',
  connectMailbox: '/connect-mailbox',
  pricing: '/pricing',
  howItWorks: '/howitworks',
  privacy: '/privacy',
  terms: '/terms',
  about: '/about',
  blog: '/blog',
  blogPost: (id: string) => `/blogDetails/${encodeURIComponent(id)}`,
  /** Where the signed-in screens live (the spec's paths keep the product's old name). */
  signedInArea: '/genie',
  subscriptions: '/genie/subscriptions',
  settings: '/genie/settings',
  accounts: '/genie/accounts',
  addAccount: '/genie/add-account',
  billing: '/genie/billing',
  rules: '/genie/rules',
  insights: '/genie/insights',
  activity: '/genie/activity',
} as const;

/** Path prefixes that belong to the API, never to the SPA (used by the server's SPA fallback). */
export const API_PREFIXES = [
  '/auth/',
  '/account/',
  '/csrf-token',
  '/signin-status',
  '/subscription-status',
  '/delete-account',
  '/get-',
  '/update-settings',
  '/report/',
  '/export',
  '/export.csv',
  '/activity',
  '/insights',
  '/send-email',
  '/unsubscribe',
  '/manual-unsubscribe',
  '/keep-subscription',
  '/bulk-action',
  '/delete-email-account',
  '/mailboxes/',
  '/sender-rules',
  '/mailbox-folders',
  '/mailbox-settings',
  '/screener',
  '/socket.io',
  '/healthz',
  '/stripe/',
  // The blog's images and the files for crawlers and feed readers (a missing one is a plain 404).
  '/blog-images/',
  '/sitemap.xml',
  '/rss.xml',
  '/robots.txt',
] as const;

/**
 * The same-site screen path of `value` (path, query, hash), or null for anything else: where a browser is
 * sent back to (after signing in; from Stripe's portal), so a crafted link can send nobody elsewhere.
 */
export function safeReturnPath(value: string | null | undefined, origin: string): string | null {
  if (!value?.startsWith('/') || value.startsWith('//')) return null;
  // Backslashes ("/\\host") and control characters (a tab or newline inside "//") are refused before
  // parsing, which would read them as "//" or drop them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this refuses them
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if (API_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return null;
  // Serialized, so a character a header cannot carry (non-ASCII) arrives percent-encoded.
  return `${url.pathname}${url.search}${url.hash}`;
}
