import { z } from 'zod';
import {
  MESSAGES,
  validateContactFrom,
  validateEmail,
  validateNewPassword,
  validateSignin,
} from '../validation.js';
import { rule } from './rule.js';

// Accounts: POST /auth/signup, /auth/signin, /auth/forgot-password, /auth/reset-password

/** POST /auth/signup: a valid address and a password of at least 8 characters. */
export const signupBodySchema = z
  .object({
    email: z.string({ error: MESSAGES.invalidEmail }),
    password: z.string({ error: MESSAGES.passwordRequired }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'email', validateEmail(b.email)) && rule(ctx, 'password', validateNewPassword(b.password));
  });

/** POST /auth/signin: a valid address and any non-empty password. */
export const signinBodySchema = z
  .object({
    email: z.string({ error: MESSAGES.invalidEmail }),
    password: z.string({ error: MESSAGES.passwordRequired }),
  })
  .superRefine((b, ctx) => {
    const message = validateSignin(b);
    if (message) rule(ctx, message === MESSAGES.passwordRequired ? 'password' : 'email', message);
  });

/** Both credential forms send the same fields. */
export type CredentialsBody = z.infer<typeof signinBodySchema>;

export const authResponseSchema = z.object({ redirectUrl: z.string() });

/** GET /auth/email-verification: whether the signed-in user's address is proven. */
export const emailStatusSchema = z.object({ email: z.string(), emailVerified: z.boolean() });
export type EmailStatus = z.infer<typeof emailStatusSchema>;
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const forgotPasswordBodySchema = z
  .object({ email: z.string({ error: MESSAGES.invalidEmail }) })
  .superRefine((b, ctx) => {
    rule(ctx, 'email', validateEmail(b.email));
  });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** POST /auth/reset-password: the new password's rule comes first, then the token must be there. */
export const resetPasswordBodySchema = z
  .object({
    token: z.string({ error: MESSAGES.resetTokenInvalid }),
    password: z.string({ error: MESSAGES.passwordTooShort }),
    /** With two-step sign-in on: a TOTP code or a recovery code (docs/decisions/091-second-factors-passkeys-and-sessions.md). */
    code: z.string().max(40).optional(),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'password', validateNewPassword(b.password)) &&
      rule(ctx, 'token', b.token ? null : MESSAGES.resetTokenInvalid);
  });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

// Settings: GET /get-settings, PUT /update-settings

export const settingsSchema = z.object({
  alertManualUnsubscribe: z.boolean({ error: 'alertManualUnsubscribe must be true or false.' }),
  alertAfterUnsubscribe: z.boolean({ error: 'alertAfterUnsubscribe must be true or false.' }),
  /** Block senders whose mail still arrives after the grace period; default false. */
  autoBlockStillSending: z.boolean({ error: 'autoBlockStillSending must be true or false.' }),
  /** The weekly report by mail (docs/decisions/084-weekly-report.md); opt-in, default false. */
  weeklyReport: z.boolean({ error: 'weeklyReport must be true or false.' }),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * PUT /update-settings: the spec's body has the two alerts; `autoBlockStillSending` and `weeklyReport` may
 * be left out and keep their values.
 */
export const settingsUpdateSchema = settingsSchema.extend({
  autoBlockStillSending: settingsSchema.shape.autoBlockStillSending.optional(),
  weeklyReport: settingsSchema.shape.weeklyReport.optional(),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** POST and GET /report/unsubscribe?token=: the token of the weekly report's List-Unsubscribe link. */
export const reportUnsubscribeQuerySchema = z.object({
  token: z
    .string({ error: 'This unsubscribe link is incomplete: open the one in the report again.' })
    .max(256, { error: 'This unsubscribe link is incomplete: open the one in the report again.' }),
});

/**
 * GET /report/preview: the signed-in user's weekly report as it would be sent now (about `week`, from
 * `weekStart` to `weekEnd`, ISO), its subject, text and HTML, and when reports go out: `nextSendAt` (ISO),
 * the next Monday 00:00 UTC, every week at that hour. `proven`: whether the address is confirmed (reports
 * go only to a confirmed one). Nothing is mailed or stored.
 */
export const reportPreviewSchema = z.object({
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  week: z.string(),
  weekStart: z.string(),
  weekEnd: z.string(),
  nextSendAt: z.string(),
  proven: z.boolean(),
});
export type ReportPreview = z.infer<typeof reportPreviewSchema>;

// Contact form: POST /send-email

export const contactBodySchema = z
  .object({
    /** "Name <address>" or a bare address. */
    from: z.string({ error: MESSAGES.contactIncomplete }),
    subject: z.string({ error: MESSAGES.contactIncomplete }),
    text: z.string({ error: MESSAGES.contactIncomplete }),
  })
  .superRefine((b, ctx) => {
    rule(ctx, 'from', validateContactFrom(b));
  });
export type ContactBody = z.infer<typeof contactBodySchema>;
