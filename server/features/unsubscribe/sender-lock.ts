import {
  ConflictError,
  DomainError,
  type DomainErrorKind,
  ForbiddenError,
  InvalidInputError,
  NotAuthenticatedError,
  NotFoundError,
  PlanLimitError,
  PlanRequiredError,
  ReauthRequiredError,
  TooManyAttemptsError,
  UpstreamUnavailableError,
} from '#server/lib/errors.js';
import type { UnsubscribeRepository } from './repository.js';
import type { FlightAnswer } from './sender.js';

// One run per sender and operation, across every instance (docs/decisions/023-one-unsubscribe-run-per-sender.md): a run holds the sender's row of unsubscribe_flights (its "flight") under a
// lease it renews; callers of the same operation, on any instance, answer with the run's stored answer; a
// run whose process died is reconciled from its pending receipts, never repeated blindly.

/** What a run does to a sender; runs of one operation share an answer, different ones take turns. */
export type Operation =
  | 'unsubscribe'
  | 'unsubscribe-confirmed'
  | 'unsubscribe-trash'
  | 'unsubscribe-confirmed-trash'
  | 'unsubscribe-keep-mail'
  | 'unsubscribe-confirmed-keep-mail'
  | 'block'
  | 'block-confirmed'
  | 'keep'
  | 'keep-restore'
  | 'review'
  | 'unblock'
  | 'restore-trash';

export const FLIGHT_MESSAGES = {
  busy: 'Inbox Genie is still working on this sender. Please try again in a moment.',
  failed: 'Something went wrong on our side. Please try again.',
} as const;

export interface SenderLockOptions {
  repo: UnsubscribeRepository;
  now: () => number;
  log?: { warn: (obj: object, msg: string) => void };
  /** How long a run holds its sender without renewing (renewed every third of it while alive). */
  leaseMs?: number;
  /** How often a caller waiting on another instance's run looks for its answer. */
  pollMs?: number;
  /** How long a caller waits for another run of the sender before answering FLIGHT_MESSAGES.busy. */
  maxWaitMs?: number;
}

/** The refusal each stored kind is thrown again as, for a caller that waited on the run. */
const REFUSALS: Record<
  DomainErrorKind,
  new (
    message: string,
    details?: Record<string, unknown>,
  ) => DomainError
> = {
  'invalid-input': InvalidInputError,
  'not-authenticated': NotAuthenticatedError,
  'reauth-required': ReauthRequiredError,
  forbidden: ForbiddenError,
  'not-found': NotFoundError,
  conflict: ConflictError,
  'plan-limit': PlanLimitError,
  'plan-required': PlanRequiredError,
  'too-many-attempts': TooManyAttemptsError,
  'upstream-unavailable': UpstreamUnavailableError,
};

/** A run that failed with an error of ours, as a caller that waited on it gets it (answered as our fault). */
export class RunFailedError extends Error {}

export function createSenderLock({ repo, now, log, ...options }: SenderLockOptions) {
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  /** Runs of this process, by operation and sender: a double click shares one promise before the database. */
  const running = new Map<string, Promise<unknown>>();

  /**
   * One run of `op` per sender: calls for the same operation (a double click, on any instance) share its
   * answer; other operations on the sender (a Keep during an unsubscribe) wait their turn and run after.
   */
  function withSenderLock<T>(
    op: Operation,
    userId: string,
    subscriptionId: string,
    task: () => Promise<T>,
  ): Promise<T> {
    const key = `${op}:${userId}:${subscriptionId}`;
    const pending = running.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const started = holdOrWait(op, userId, subscriptionId, task).finally(() => running.delete(key));
    running.set(key, started);
    return started;
  }

  /** Runs `task` holding the sender's flight, or answers what the run of `op` holding it answered. */
  async function holdOrWait<T>(
    op: Operation,
    userId: string,
    subscriptionId: string,
    task: () => Promise<T>,
  ): Promise<T> {
    const deadline = now() + maxWaitMs;
    for (;;) {
      const claim = await repo.claimFlight(subscriptionId, userId, now(), leaseMs);
      if (claim.claimed) return runHolding(op, subscriptionId, claim.startedAt, task);
      if (now() > deadline) throw new ConflictError(FLIGHT_MESSAGES.busy);
      const waited = await waitForAnswer(op, subscriptionId, claim.startedAt, deadline);
      if (waited.kind === 'answer') return replay<T>(waited.answer);
      // The run we waited on died without an answer (its lease ran out): settle what it left, try again.
      if (waited.kind === 'abandoned') await reconcile(subscriptionId, claim.startedAt);
    }
  }

  async function runHolding<T>(
    op: Operation,
    subscriptionId: string,
    startedAt: number,
    task: () => Promise<T>,
  ): Promise<T> {
    const renew = setInterval(
      () => {
        repo.renewFlight(subscriptionId, startedAt, now() + leaseMs).catch((error: unknown) => {
          log?.warn(
            { senderId: subscriptionId, err: String(error) },
            'could not renew the unsubscribe lease',
          );
        });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let answer: FlightAnswer = {
      op,
      ok: false,
      kind: 'failed',
      message: FLIGHT_MESSAGES.failed,
      details: {},
    };
    try {
      const value = await task();
      answer = { op, ok: true, value };
      return value;
    } catch (error) {
      if (error instanceof DomainError) {
        answer = { op, ok: false, kind: error.kind, message: error.message, details: error.details };
      }
      throw error;
    } finally {
      clearInterval(renew);
      await repo.finishFlight(subscriptionId, startedAt, answer);
    }
  }

  async function waitForAnswer(
    op: Operation,
    subscriptionId: string,
    startedAt: number,
    deadline: number,
  ): Promise<
    | { kind: 'answer'; answer: Exclude<FlightAnswer, { retry: true }> }
    | { kind: 'abandoned' }
    | { kind: 'changed' }
  > {
    // Until the deadline: then the caller claims once more and gives up with FLIGHT_MESSAGES.busy.
    while (now() <= deadline) {
      await new Promise((r) => setTimeout(r, pollMs));
      const flight = await repo.flight(subscriptionId);
      if (!flight || flight.startedAt !== startedAt) return { kind: 'changed' };
      if (flight.finished && flight.answer) {
        const answer = flight.answer;
        // Another operation's answer is not ours: the sender is free now, so this one runs.
        if ('retry' in answer || answer.op !== op) return { kind: 'changed' };
        return { kind: 'answer', answer };
      }
      if (!flight.finished && flight.leaseUntil < now()) return { kind: 'abandoned' };
    }
    return { kind: 'changed' };
  }

  function replay<T>(answer: Exclude<FlightAnswer, { retry: true }>): T {
    if (answer.ok) return answer.value as T;
    // An answer without a kind we know (stored by an older version) is answered as our fault.
    const Refusal = answer.kind === 'failed' ? undefined : REFUSALS[answer.kind];
    if (!Refusal) throw new RunFailedError(answer.message);
    throw new Refusal(answer.message, answer.details);
  }

  /**
   * A run whose process died: a request that was started (one-click POST, mailto) may have reached the
   * sender, so it is recorded as made and never repeated — the verification flags the sender if its mail
   * keeps coming. A block or unblock cut short is recorded as failed; both are safe to run again.
   */
  async function reconcile(subscriptionId: string, startedAt: number): Promise<void> {
    let reached = false;
    for (const r of await repo.pendingReceipts(subscriptionId)) {
      const sent = r.method === 'one-click' || r.method === 'mailto';
      reached ||= sent;
      await repo.settle(r.id, {
        ok: sent,
        detail: sent
          ? 'Interrupted after the request was started; it may have reached the sender, so it was not repeated.'
          : 'Interrupted before it finished; nothing is assumed done.',
      });
    }
    if (reached) await repo.markUnsubscribed(subscriptionId, now());
    // Callers start over: the sender now answers from its receipts, or runs again where nothing went out.
    await repo.finishFlight(subscriptionId, startedAt, { retry: true });
  }

  return {
    withSenderLock,
    /**
     * At start: settles the runs a stopped process left behind. `all`: every unfinished run is abandoned
     * (SQLite: this process is the only one); otherwise only those whose lease ran out.
     */
    async reconcileAbandoned(options: { all: boolean }): Promise<number> {
      const flights = await repo.abandonedFlights(now(), options);
      for (const f of flights) await reconcile(f.senderId, f.startedAt);
      return flights.length;
    },
  };
}
