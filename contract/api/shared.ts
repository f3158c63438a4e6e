import { z } from 'zod';

// Shared answers

export const errorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const statusResponseSchema = z.object({ status: z.boolean() });
export type StatusResponse = z.infer<typeof statusResponseSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });
export type CsrfTokenResponse = z.infer<typeof csrfTokenResponseSchema>;
