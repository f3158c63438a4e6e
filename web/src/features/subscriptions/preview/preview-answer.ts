// What the Read button does with the answer of POST /get-message-preview (docs/product.md §3, §5, §8).
import { failureText, isStatus, redirectUrlOf } from '../../../lib/api-client';

/** docs/product.md §8: the words of a preview whose message is gone (404), shown in the preview. */
export const PREVIEW_NOT_FOUND = 'Preview not found, please check your email for the message';
/** The lead of any other failure, before the server's reason (docs/decisions/098-failures-say-why.md). */
export const PREVIEW_FAILED = 'Failed to load the preview...';

/** docs/product.md §3/§5: an empty answer or the value 'Messages not found' means there is nothing to show. */
export function isEmptyPreview(html: string | null | undefined): boolean {
  if (typeof html !== 'string') return true;
  const text = html.trim();
  return text === '' || text === 'Messages not found';
}

export type PreviewFailure =
  | { kind: 'redirect'; url: string }
  | { kind: 'not-found' }
  /** Any other failure: its words (e.g. a 502's "Could not reach the mail server at …"), with Retry. */
  | { kind: 'failed'; text: string };

/**
 * How a failed preview call is answered: a 401 with redirectUrl re-authenticates, a 404 says the message is
 * gone, anything else says why.
 */
export function previewFailure(error: unknown): PreviewFailure {
  const url = isStatus(error, 401) ? redirectUrlOf(error) : null;
  if (url) return { kind: 'redirect', url };
  if (isStatus(error, 404)) return { kind: 'not-found' };
  return { kind: 'failed', text: failureText(PREVIEW_FAILED, error) };
}
