/**
 * What a feature refuses, named by its reason. Features throw these and know nothing of HTTP;
 * server/http/plugins/errors.ts gives each kind its status. The message is meant for the user, and
 * `details` travel beside it in the answer (`redirectUrl`, `confirmBlock`, `offerBlock`, `bulkId`…).
 */
export type DomainErrorKind =
  | 'invalid-input'
  | 'not-authenticated'
  | 'reauth-required'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'plan-limit'
  | 'plan-required'
  | 'too-many-attempts'
  | 'upstream-unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The request asks for something the rules do not allow (a field, a state, an option). */
export class InvalidInputError extends DomainError {
  readonly kind = 'invalid-input';
}
/** Wrong or missing credentials. */
export class NotAuthenticatedError extends DomainError {
  readonly kind = 'not-authenticated';
}
/** A mailbox's grant ended: the user signs in to it again at `details.redirectUrl`. */
export class ReauthRequiredError extends DomainError {
  readonly kind = 'reauth-required';
}
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}
/** Not there, or not the caller's (the two are not told apart). */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
}
/** The thing is in a state that refuses this now (busy, already done, needs a confirmation). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}
/** The free trial's limit is reached: the user is sent to pricing. */
export class PlanLimitError extends DomainError {
  readonly kind = 'plan-limit';
}
/** A mailbox beyond the free trial's: the add-account screen asks for a plan (answered 401, as the spec's screen expects). */
export class PlanRequiredError extends DomainError {
  readonly kind = 'plan-required';
}
export class TooManyAttemptsError extends DomainError {
  readonly kind = 'too-many-attempts';
}
/** A service outside the product (a mail server, Stripe, the blog's source) did not answer as it should. */
export class UpstreamUnavailableError extends DomainError {
  readonly kind = 'upstream-unavailable';
}
