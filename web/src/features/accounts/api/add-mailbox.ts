import { type AddMailboxBody, type AppPasswordProvider, authResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Adds a mailbox by its app password (POST /auth/add-mailbox/:provider); answers where to go next. */
export const addMailbox = (provider: AppPasswordProvider, body: AddMailboxBody) =>
  api.post(API.addMailbox(provider), body, authResponseSchema);
