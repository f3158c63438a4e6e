// Typed wrappers of the API calls the screens make (docs/product.md §7); paths come from the contract.

import { ANALYTICS_CLIENT_ID_HEADER } from '#contract/analytics.js';
import type {
  AddMailboxBody,
  AppPasswordProvider,
  AuthResponse,
  BillingState,
  BlogListResponse,
  BlogPost,
  BulkActionBody,
  BulkStatus,
  ContactBody,
  CredentialsBody,
  EmailAccountsResponse,
  EmailStatus,
  MessagePreviewBody,
  PricesResponse,
  PublicConfig,
  ResetPasswordBody,
  Settings,
  SettingsUpdate,
  StatusResponse,
  Subscription,
  SubscriptionCategory,
  SubscriptionMessagesResponse,
  SubscriptionSort,
  SubscriptionsResponse,
  UnsubscribeResult,
  UrlResponse,
} from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../lib/api-client';

export const signUp = (body: CredentialsBody) => api.post<AuthResponse>(API.signup, body);
export const signIn = (body: CredentialsBody) => api.post<AuthResponse>(API.signin, body);
export const logOut = () => api.post<unknown>(API.logout);
export const forgotPassword = (email: string) => api.post<unknown>(API.forgotPassword, { email });
export const resetPassword = (body: ResetPasswordBody) => api.post<unknown>(API.resetPassword, body);

export const signinStatus = () => api.get<StatusResponse>(API.signinStatus);
export const subscriptionStatus = () => api.get<StatusResponse>(API.subscriptionStatus);

export const getSettings = () => api.get<Settings>(API.getSettings);
export const getEmailStatus = () => api.get<EmailStatus>(API.emailVerification);
export const resendVerification = () => api.post<{ message: string }>(API.emailVerification);
export const updateSettings = (settings: SettingsUpdate) => api.put<unknown>(API.updateSettings, settings);
export const deleteAccount = () => api.delete<unknown>(API.deleteAccount);

export const sendEmail = (body: ContactBody) => api.post<unknown>(API.sendEmail, body);
export const getPublicConfig = () => api.get<PublicConfig>(API.publicConfig);

export const addMailbox = (provider: AppPasswordProvider, body: AddMailboxBody) =>
  api.post<AuthResponse>(API.addMailbox(provider), body);
export const getEmailAccounts = () => api.get<EmailAccountsResponse>(API.emailAccounts);
export const deleteEmailAccount = (email: string) => api.delete<unknown>(API.deleteEmailAccount, { email });

export interface SubscriptionsPageQuery {
  sort?: SubscriptionSort;
  /** Matches the sender's name or address; empty: every sender. */
  q?: string;
  limit?: number;
  cursor?: string | null;
}

/** One category's list; with `limit`, one page of it (`nextCursor` leads to the next, `total` counts all). */
export const getSubscriptions = (category: SubscriptionCategory, page: SubscriptionsPageQuery = {}) => {
  const params = new URLSearchParams({ category });
  if (page.sort) params.set('sort', page.sort);
  if (page.q?.trim()) params.set('q', page.q.trim());
  if (page.limit) params.set('limit', String(page.limit));
  if (page.cursor) params.set('cursor', page.cursor);
  return api.get<SubscriptionsResponse>(`${API.subscriptions}?${params}`);
};
export const keepSubscription = (subscriptionId: string) =>
  api.post<Subscription>(API.keepSubscription, { subscriptionId });
export const getSubscriptionMessages = (id: string) =>
  api.get<SubscriptionMessagesResponse>(API.subscriptionMessages(id));
/**
 * `confirmBlock`: the user agreed that a block also trashes mail without list headers (after a 409);
 * `moveToTrash`: also move the sender's existing mail to the trash once unsubscribed.
 */
export const unsubscribe = (subscriptionId: string, confirmBlock = false, moveToTrash = false) =>
  api.post<UnsubscribeResult>(API.unsubscribe, {
    subscriptionId,
    ...(confirmBlock ? { confirmBlock } : {}),
    ...(moveToTrash ? { moveToTrash } : {}),
  });
/** Undoes a Keep: the sender goes back to the review list; answers the updated item. */
export const reviewSubscription = (subscriptionId: string) =>
  api.post<Subscription>(API.reviewSubscription, { subscriptionId });
/** Undoes a Block: the rule goes and the mail it trashed moves back (`restoredFromTrash`). */
export const unblockSubscription = (subscriptionId: string) =>
  api.post<Subscription>(API.unblockSubscription, { subscriptionId });
/** Starts an action on many senders (202 {bulkId}); its progress comes on the socket and from bulkStatus. */
export const startBulkAction = (body: BulkActionBody) => api.post<{ bulkId: string }>(API.bulkAction, body);
export const getBulkStatus = (bulkId: string) => api.get<BulkStatus>(API.bulkActionStatus(bulkId));
/** Confirms a manual unsubscribe (the user opened the sender's page); answers the updated item. */
export const manualUnsubscribe = (subscriptionId: string) =>
  api.post<Subscription>(API.manualUnsubscribe, { subscriptionId });
/** Blocks a sender (still sending, or its unsubscribe mail could not be sent); answers the updated item. */
export const blockSubscription = (subscriptionId: string, confirmBlock = false) =>
  api.post<Subscription>(API.blockSubscription, {
    subscriptionId,
    ...(confirmBlock ? { confirmBlock } : {}),
  });
/** The message's sanitized HTML (text/html); '' or 'Messages not found' when there is none (docs/product.md §3). */
export const getMessagePreview = (body: MessagePreviewBody) => api.postText(API.messagePreview, body);

/** The pricing calls carry the visitor's analytics client id when it is known (docs/product.md §7). */
const analyticsHeaders = (clientId: string | null): Record<string, string> =>
  clientId ? { [ANALYTICS_CLIENT_ID_HEADER]: clientId } : {};

export const getPrices = (clientId: string | null) =>
  api.get<PricesResponse>(API.prices, analyticsHeaders(clientId));
/** Checkout for the monthly or yearly plan; `originalUrl`: where Checkout's cancel leads back. */
export const getPaymentLink = (interval: 'month' | 'year', originalUrl: string, clientId: string | null) =>
  api.post<UrlResponse>(
    interval === 'month' ? API.monthlyPaymentLink : API.yearlyPaymentLink,
    { originalUrl },
    analyticsHeaders(clientId),
  );
export const getBillingPortalLink = (originalUrl: string) =>
  api.post<UrlResponse>(API.billingPortalLink, { originalUrl });
export const getBilling = () => api.get<BillingState>(API.billing);

/** The blog: public calls, no session needed. */
export const getBlogPosts = () => api.get<BlogListResponse>(API.blogPosts);
export const getBlogPost = (id: string) => api.get<BlogPost>(API.blogPost(id));
