import { undoActivityResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/**
 * Undoes one entry of the activity history (POST /activity/:id/undo): the entry as it is now and how many
 * messages came back. A bulk's entry has the bulk's id, so the bulk summary's Undo is this call too.
 */
export const undoActivity = (id: string) => api.post(API.activityUndo(id), {}, undoActivityResponseSchema);
