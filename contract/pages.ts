// What each screen is called and how it is described: the browser tab's title (the web's routes read
// `title`), and the <title>, meta description and sharing tags the server writes into the HTML it answers
// for that path (crawlers and link previews do not run the app). One table, so the two cannot drift.

import { SCREENS } from './routes.js';

export const PRODUCT_NAME = 'Inbox Genie';

export interface PageInfo {
  path: string;
  /** The tab's "<title> — Inbox Genie"; null: the product's name alone (the home page). */
  title: string | null;
  description: string;
  /** Listed in /sitemap.xml (the pages worth finding from a search engine). */
  sitemap: boolean;
}

const DESCRIPTION =
  'Inbox Genie finds the newsletters in your mailboxes and lets you keep or unsubscribe from each one.';

/** The public screens (docs/product.md §2), by their SCREENS name. */
export const PUBLIC_PAGES = {
  home: { path: SCREENS.home, title: null, description: DESCRIPTION, sitemap: true },
  pricing: {
    path: SCREENS.pricing,
    title: 'Pricing',
    description:
      'Inbox Genie plans: try it free, then unsubscribe without limits with Premium, monthly or yearly.',
    sitemap: true,
  },
  howItWorks: {
    path: SCREENS.howItWorks,
    title: 'How It Works',
    description:
      'How Inbox Genie works: add a mailbox, see every newsletter that writes to you, keep some, unsubscribe from the rest.',
    sitemap: true,
  },
  about: {
    path: SCREENS.about,
    title: 'About',
    description: 'About Inbox Genie, the tool that clears newsletters you no longer read out of your inbox.',
    sitemap: true,
  },
  blog: {
    path: SCREENS.blog,
    title: 'Blog',
    description:
      'The Inbox Genie blog: guides to a calmer inbox, newsletters, unsubscribing and email privacy.',
    sitemap: true,
  },
  privacy: {
    path: SCREENS.privacy,
    title: 'Privacy Policy',
    description: 'How Inbox Genie handles your data and your mailboxes.',
    sitemap: true,
  },
  terms: {
    path: SCREENS.terms,
    title: 'Terms of Service',
    description: 'The terms of using Inbox Genie.',
    sitemap: true,
  },
  signin: {
    path: SCREENS.signin,
    title: 'Sign In',
    description: 'Sign in to Inbox Genie with Gmail, Outlook, Yahoo, iCloud or any IMAP mailbox.',
    sitemap: false,
  },
  signup: {
    path: SCREENS.signup,
    title: 'Sign Up',
    description: 'Create your Inbox Genie account and clear the newsletters out of your inbox.',
    sitemap: false,
  },
  signinPassword: {
    path: SCREENS.signinPassword,
    title: 'Sign In',
    description: 'Sign in to Inbox Genie with your email and password.',
    sitemap: false,
  },
  createAccount: {
    path: SCREENS.createAccount,
    title: 'Create Account',
    description: 'Create your Inbox Genie account with your email and a password.',
    sitemap: false,
  },
  resetPassword: {
    path: SCREENS.resetPassword,
    title: 'Forgot Password',
    description: 'Get a link to choose a new Inbox Genie password.',
    sitemap: false,
  },
  resetPasswordSent: {
    path: SCREENS.resetPasswordSent,
    title: 'Check Your Inbox',
    description: 'A link to choose a new password is on its way to your inbox.',
    sitemap: false,
  },
  resetPasswordConfirm: {
    path: SCREENS.resetPasswordConfirm,
    title: 'Choose a New Password',
    description: 'Choose a new password for your Inbox Genie account.',
    sitemap: false,
  },
  confirmEmail: {
    path: SCREENS.confirmEmail,
    title: 'Confirm Your Email',
    description: 'Confirm the address of your Inbox Genie account.',
    sitemap: false,
  },
  signinTotp: {
    path: SCREENS.signinTotp,
    title: 'Two-Step Sign-In',
    description: 'Enter the code from your authenticator app to finish signing in.',
    sitemap: false,
  },
  connectMailbox: {
    path: SCREENS.connectMailbox,
    title: 'Connect a Mailbox',
    description: 'Connect a mailbox to Inbox Genie to find the newsletters in it.',
    sitemap: false,
  },
  addMailbox: {
    path: SCREENS.addMailbox,
    title: 'Add a Mailbox',
    description: 'Add a mailbox to Inbox Genie with an app-specific password.',
    sitemap: false,
  },
} as const satisfies Record<string, PageInfo>;

/** The signed-in screens under /genie (not described to crawlers: they are private). */
export const SIGNED_IN_PAGES = {
  subscriptions: { path: SCREENS.subscriptions, title: 'Subscriptions' },
  accounts: { path: SCREENS.accounts, title: 'Email Accounts' },
  addAccount: { path: SCREENS.addAccount, title: 'Add an Email Account' },
  billing: { path: SCREENS.billing, title: 'Billing' },
  settings: { path: SCREENS.settings, title: 'Settings' },
  rules: { path: SCREENS.rules, title: 'Rules' },
  insights: { path: SCREENS.insights, title: 'Insights' },
  activity: { path: SCREENS.activity, title: 'Activity' },
} as const satisfies Record<string, { path: string; title: string }>;

/** The not-found screen's title (any path no screen has). */
export const NOT_FOUND_TITLE = 'Page Not Found';

/** "Pricing — Inbox Genie"; the product's name alone for a screen without a title. */
export function documentTitle(title?: string | null): string {
  return title ? `${title} — ${PRODUCT_NAME}` : PRODUCT_NAME;
}
