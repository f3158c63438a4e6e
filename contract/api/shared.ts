import { z } from 'zod';

// Shared answers

export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * What an error answer may carry beside its message (`{message, ...details}`, server/lib/errors.ts):
 * `redirectUrl` of a 401 asking to sign in to a mailbox again, `confirmBlock` of a 409 asking to confirm a
 * block, `offerBlock` of a 502 offering Block when an unsubscribe failed, and `totpRequired` of a 401 of
 * POST /auth/reset-password when the account has two-step sign-in and no good code came. The web reads
 * them once, in its API client, into `ApiError.details` (by hand there: zod stays out of the landing page).
 */
export const errorDetailsSchema = z.object({
  redirectUrl: z.string().min(1).optional(),
  confirmBlock: z.literal(true).optional(),
  offerBlock: z.literal(true).optional(),
  totpRequired: z.literal(true).optional(),
});
export type ErrorDetails = z.infer<typeof errorDetailsSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const statusResponseSchema = z.object({ status: z.boolean() });
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfTokenResponse = z.infer<typeof csrfTokenResponseSchema>;
