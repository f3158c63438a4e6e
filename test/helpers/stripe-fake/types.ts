// Shapes of the objects the fake serves, after Stripe's API reference (https://docs.stripe.com/api) and
// the stripe SDK's own types (node_modules/stripe/cjs/resources/*.d.ts), trimmed to the fields a
// subscription product reads. Every object carries `object` and `livemode: false` as Stripe's do.

export type Interval = 'month' | 'year';

export interface PriceSeed {
  id?: string;
  unit_amount: number;
  nickname?: string;
}

export interface StripeFakeOptions {
  /** The secret key the fake accepts (`Authorization: Bearer …`). Default `sk_test_fake`. */
  secretKey?: string;
  /** The signing secret of the webhook endpoint. Default `whsec_fake`. */
  webhookSecret?: string;
  /** Where events are POSTed; unset: events are recorded but not sent (set it later with setWebhookUrl). */
  webhookUrl?: string;
  prices?: { monthly?: PriceSeed; yearly?: PriceSeed };
  /** Start with deliveries held (as if the webhook were slow). */
  holdEvents?: boolean;
  /** The API version stamped on events; default the SDK's pinned version. */
  apiVersion?: string;
}

export type Json = Record<string, unknown>;

export interface FakeError {
  status: number;
  type: 'invalid_request_error' | 'idempotency_error' | 'api_error' | 'authentication_error';
  message: string;
  code?: string;
  param?: string;
}

export class StripeFakeError extends Error {
  constructor(readonly body: FakeError) {
    super(body.message);
  }
}

export function missing(kind: string, id: string, param = 'id'): StripeFakeError {
  return new StripeFakeError({
    status: 404,
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

export function invalid(param: string, message: string, code = 'parameter_invalid'): StripeFakeError {
  return new StripeFakeError({ status: 400, type: 'invalid_request_error', code, message, param });
}

export function required(param: string): StripeFakeError {
  return invalid(param, `Missing required param: ${param}.`, 'parameter_missing');
}

export interface Delivery {
  eventId: string;
  type: string;
  /** HTTP status of the webhook's answer; 0 when the connection failed. */
  status: number;
  body: string;
  at: number;
}
