import { describe, expect, it } from 'vitest';
import { ConflictError, ReauthRequiredError } from '#server/lib/errors.js';
import type { UnsubscribeRepository } from './repository.js';
import type { FlightAnswer } from './sender.js';
import { createSenderLock, FLIGHT_MESSAGES, RunFailedError } from './sender-lock.js';

/** A lock whose sender is held by another instance's run that finished with `answer`. */
function heldElsewhere(answer: FlightAnswer) {
  const repo = {
    claimFlight: async () => ({ claimed: false, startedAt: 1, leaseUntil: 2 }),
    flight: async () => ({ startedAt: 1, finished: true, leaseUntil: 0, answer }),
  } as unknown as UnsubscribeRepository;
  return createSenderLock({ repo, now: () => 0, pollMs: 1 }).withSenderLock;
}

/** A lock free for this run, keeping what the run answered. */
function free() {
  const stored: FlightAnswer[] = [];
  const repo = {
    claimFlight: async () => ({ claimed: true, startedAt: 1 }),
    renewFlight: async () => {},
    finishFlight: async (_id: string, _at: number, answer: FlightAnswer) => {
      stored.push(answer);
    },
  } as unknown as UnsubscribeRepository;
  return { withSenderLock: createSenderLock({ repo, now: () => 0 }).withSenderLock, stored };
}

describe('withSenderLock', () => {
  it('stores a refusal with its kind and details, and a waiter gets the same refusal', async () => {
    const { withSenderLock, stored } = free();
    const refusal = new ReauthRequiredError('Please sign in to your mailbox again.', { redirectUrl: '/x' });
    await expect(
      withSenderLock('block', 'u', 's', async () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(stored).toEqual([
      {
        op: 'block',
        ok: false,
        kind: 'reauth-required',
        message: refusal.message,
        details: { redirectUrl: '/x' },
      },
    ]);

    const replayed = await heldElsewhere(stored[0]!)('block', 'u', 's', async () => 'not run').catch(
      (e) => e,
    );
    expect(replayed).toBeInstanceOf(ReauthRequiredError);
    expect(replayed).toMatchObject({ message: refusal.message, details: { redirectUrl: '/x' } });
  });

  it('answers any other error of the run as our fault', async () => {
    const { withSenderLock, stored } = free();
    await expect(
      withSenderLock('keep', 'u', 's', async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    expect(stored[0]).toMatchObject({ ok: false, kind: 'failed', message: FLIGHT_MESSAGES.failed });
    const replayed = await heldElsewhere(stored[0]!)('keep', 'u', 's', async () => 'not run').catch((e) => e);
    expect(replayed).toBeInstanceOf(RunFailedError);
    expect(replayed.message).toBe(FLIGHT_MESSAGES.failed);
  });

  it('shares a finished run’s value with a waiter of the same operation', async () => {
    const answer: FlightAnswer = { op: 'review', ok: true, value: { id: 's' } };
    await expect(heldElsewhere(answer)('review', 'u', 's', async () => 'not run')).resolves.toEqual({
      id: 's',
    });
  });

  it('refuses as busy once the wait is over', async () => {
    const repo = {
      claimFlight: async () => ({ claimed: false, startedAt: 1, leaseUntil: 2 }),
    } as unknown as UnsubscribeRepository;
    let t = 0;
    const { withSenderLock } = createSenderLock({ repo, now: () => (t += 10), maxWaitMs: 5, pollMs: 1 });
    await expect(withSenderLock('keep', 'u', 's', async () => 'not run')).rejects.toEqual(
      new ConflictError(FLIGHT_MESSAGES.busy),
    );
  });
});
