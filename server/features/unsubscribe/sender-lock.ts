import { HttpError } from '#server/lib/errors.js';
import type { FlightAnswer, UnsubscribeRepository } from './repository.js';

// One run per sender and operation, across every instance (docs/decisions.md "One unsubscribe run per
// sender across instances"): a run holds the sender's row of unsubscribe_flights under a lease it renews;
// callers of the same operation, on any instance, answer with the run's stored answer; a run whose
// process died is reconciled from its pending receipts, never repeated blindly.

/** What a run does to a sender; runs of one operation share an answer, different ones take turns. */
export type Operation =
  | 'unsubscribe'
  | 'unsubscribe-confirmed'
  | 'unsubscribe-trash'
  | 'unsubscribe-confirmed-trash'
  | 'block'
  | 'block-confirmed'
  | 'keep'
  | 'review'
  | 'unblock';

export const FLIGHT_MESSAGES = {
  busy: 'Inbox Genie is still working on this sender. Please try again in a moment.',
  failed: 'Something went wrong on our side. Please try again.',
} as const;

export interface FlightOptions {
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

export function createFlights({ repo, now, log, ...options }: FlightOptions) {
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  /** Runs of this process, by operation and sender: a double click shares one promise before the database. */
  const running = new Map<string, Promise<unknown>>();

  /**
   * One run of `op` per sender: calls for the same operation (a double click, on any instance) share its
   * answer; other operations on the sender (a Keep during an unsubscribe) wait their turn and run after.
   */
  function single<T>(op: Operation, userId: string, senderId: string, task: () => Promise<T>): Promise<T> {
    const key = `${op}:${userId}:${senderId}`;
    const pending = running.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const started = inFlight(op, userId, senderId, task).finally(() => running.delete(key));
    running.set(key, started);
    return started;
  }

  /** Runs `task` holding the sender's flight, or answers what the run of `op` holding it answered. */
  async function inFlight<T>(
    op: Operation,
    userId: string,
    senderId: string,
    task: () => Promise<T>,
  ): Promise<T> {
    const deadline = now() + maxWaitMs;
    for (;;) {
      const claim = await repo.claimFlight(senderId, userId, now(), leaseMs);
      if (claim.claimed) return runHolding(op, senderId, claim.startedAt, task);
      if (now() > deadline) throw new HttpError(409, FLIGHT_MESSAGES.busy);
      const waited = await waitForAnswer(op, senderId, claim.startedAt, deadline);
      if (waited.kind === 'answer') return replay<T>(waited.answer);
      // The run we waited on died without an answer (its lease ran out): settle what it left, try again.
      if (waited.kind === 'abandoned') await reconcile(senderId, claim.startedAt);
    }
  }

  async function runHolding<T>(
    op: Operation,
    senderId: string,
    startedAt: number,
    task: () => Promise<T>,
  ): Promise<T> {
    const renew = setInterval(
      () => {
        repo.renewFlight(senderId, startedAt, now() + leaseMs).catch((error: unknown) => {
          log?.warn({ senderId, err: String(error) }, 'could not renew the unsubscribe lease');
        });
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let answer: FlightAnswer = { op, ok: false, status: 500, message: FLIGHT_MESSAGES.failed, body: {} };
    try {
      const value = await task();
      answer = { op, ok: true, value };
      return value;
    } catch (error) {
      if (error instanceof HttpError) {
        answer = { op, ok: false, status: error.statusCode, message: error.message, body: error.body };
      }
      throw error;
    } finally {
      clearInterval(renew);
      await repo.finishFlight(senderId, startedAt, answer);
    }
  }

  async function waitForAnswer(
    op: Operation,
    senderId: string,
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
      const flight = await repo.flight(senderId);
      if (!flight || flight.started_at !== startedAt) return { kind: 'changed' };
      if (flight.lease_until === 0 && flight.answer) {
        const answer = JSON.parse(flight.answer) as FlightAnswer;
        // Another operation's answer is not ours: the sender is free now, so this one runs.
        if ('retry' in answer || answer.op !== op) return { kind: 'changed' };
        return { kind: 'answer', answer };
      }
      if (flight.lease_until !== 0 && flight.lease_until < now()) return { kind: 'abandoned' };
    }
    return { kind: 'changed' };
  }

  function replay<T>(answer: Exclude<FlightAnswer, { retry: true }>): T {
    if (answer.ok) return answer.value as T;
    throw new HttpError(answer.status, answer.message, answer.body);
  }

  /**
   * A run whose process died: a request that was started (one-click POST, mailto) may have reached the
   * sender, so it is recorded as made and never repeated — the verification flags the sender if its mail
   * keeps coming. A block or unblock cut short is recorded as failed; both are safe to run again.
   */
  async function reconcile(senderId: string, startedAt: number): Promise<void> {
    let reached = false;
    for (const r of await repo.pendingReceipts(senderId)) {
      const sent = r.method === 'one-click' || r.method === 'mailto';
      reached ||= sent;
      await repo.settle(
        r.id,
        sent,
        sent
          ? 'Interrupted after the request was started; it may have reached the sender, so it was not repeated.'
          : 'Interrupted before it finished; nothing is assumed done.',
      );
    }
    if (reached) await repo.markUnsubscribed(senderId, now());
    // Callers start over: the sender now answers from its receipts, or runs again where nothing went out.
    await repo.finishFlight(senderId, startedAt, { retry: true });
  }

  return {
    single,
    /**
     * At start: settles the runs a stopped process left behind. `all`: every unfinished run is abandoned
     * (SQLite: this process is the only one); otherwise only those whose lease ran out.
     */
    async reconcileAbandoned(options: { all: boolean }): Promise<number> {
      const flights = await repo.abandonedFlights(now(), options.all);
      for (const f of flights) await reconcile(f.sender_id, f.started_at);
      return flights.length;
    },
  };
}
