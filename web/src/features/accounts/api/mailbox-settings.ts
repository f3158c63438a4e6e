import { type MailboxSettingsResponse, mailboxSettingsResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** The IMAP server the product suggests for an address (GET /mailbox-settings); nulls when none is found. */
export const fetchMailboxSettings = (email: string): Promise<MailboxSettingsResponse> =>
  api.get(`${API.mailboxSettings}?email=${encodeURIComponent(email)}`, mailboxSettingsResponseSchema);
