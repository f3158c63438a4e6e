import { type BulkActionBody, bulkStartedSchema, bulkStatusSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Starts an action on many senders (202 {bulkId}); its progress comes on the socket and from getBulkStatus. */
export const startBulkAction = (body: BulkActionBody) => api.post(API.bulkAction, body, bulkStartedSchema);

/** Where a bulk action stands (GET /bulk-action/:bulkId): the server is the record. */
export const getBulkStatus = (bulkId: string) => api.get(API.bulkActionStatus(bulkId), bulkStatusSchema);
