import { useMutation, useQuery } from '@tanstack/react-query';
import { emailStatusSchema, messageResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';
import { USER_KEY } from '../../../lib/query-keys';

/** Whether the user's address is proven (GET /auth/email-verification). */
export const getEmailStatus = () => api.get(API.emailVerification, emailStatusSchema);

/** Mails the proof link again (POST /auth/email-verification). */
export const resendVerification = () => api.post(API.emailVerification, {}, messageResponseSchema);

export const EMAIL_STATUS_KEY = [...USER_KEY, 'email-status'] as const;

export const emailStatusQueryOptions = () => ({
  queryKey: EMAIL_STATUS_KEY,
  queryFn: getEmailStatus,
  staleTime: 60_000,
});

export const useEmailStatus = () => useQuery(emailStatusQueryOptions());

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });
