import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { isEmptyPreview, PREVIEW_FAILED, previewFailure } from './preview-answer';

describe('isEmptyPreview', () => {
  it("treats nothing, blanks and 'Messages not found' as empty", () => {
    expect(isEmptyPreview(undefined)).toBe(true);
    expect(isEmptyPreview(null)).toBe(true);
    expect(isEmptyPreview('')).toBe(true);
    expect(isEmptyPreview('  \n')).toBe(true);
    expect(isEmptyPreview('Messages not found')).toBe(true);
    expect(isEmptyPreview(' Messages not found\n')).toBe(true);
  });

  it('keeps any HTML', () => {
    expect(isEmptyPreview('<p>Hello</p>')).toBe(false);
    expect(isEmptyPreview('<p>Messages not found</p>')).toBe(false);
  });
});

describe('previewFailure', () => {
  it('re-authenticates on a 401 carrying a redirectUrl', () => {
    const error = new ApiError(401, 'expired', { message: 'expired', redirectUrl: '/auth/google' });
    expect(previewFailure(error)).toEqual({ kind: 'redirect', url: '/auth/google' });
  });

  it('says the message is gone on a 404', () => {
    expect(previewFailure(new ApiError(404, 'gone', { message: 'gone' }))).toEqual({ kind: 'not-found' });
  });

  it("says why anything else failed, with the server's reason when it gave one", () => {
    expect(previewFailure(new ApiError(502, 'Could not reach the mail server at imap.example:993.'))).toEqual(
      {
        kind: 'failed',
        text: 'Failed to load the preview: Could not reach the mail server at imap.example:993.',
      },
    );
    expect(previewFailure(new ApiError(401, '', { message: 'no' }))).toEqual({
      kind: 'failed',
      text: PREVIEW_FAILED,
    });
    expect(previewFailure(new ApiError(0, ''))).toEqual({ kind: 'failed', text: PREVIEW_FAILED });
    expect(previewFailure(new Error('x'))).toEqual({ kind: 'failed', text: PREVIEW_FAILED });
  });
});
