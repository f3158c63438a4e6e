import type { MessagePreviewBody } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** The message's sanitized HTML (text/html); '' or 'Messages not found' when there is none (docs/product.md §3). */
export const getMessagePreview = (body: MessagePreviewBody) => api.postText(API.messagePreview, body);
