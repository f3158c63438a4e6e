import type { Sender } from './sender.js';

// The free trial's unsubscribes: one is taken for a sender before anything is sent, and given back when the
// attempt did not unsubscribe it.

/**
 * Takes one of the free trial's unsubscribes for a sender (PlanLimitError when none is left); `release`
 * gives it back.
 */
export type ReserveUnsubscribe = (userId: string, senderId: string) => Promise<{ release(): Promise<void> }>;

/** Nothing is limited (no billing configured). */
export const unlimited: ReserveUnsubscribe = async () => ({ release: async () => {} });

export interface TrialAllowanceInput<T> {
  reserve: ReserveUnsubscribe;
  userId: string;
  sender: Sender;
  /** Whether the task's answer moved the sender to unsubscribed (then the unsubscribe stays used). */
  moved: (answer: T) => boolean;
  log?: { warn: (obj: object, msg: string) => void };
}

/**
 * Runs `task`, which may move the sender to unsubscribed, holding one of the trial's unsubscribes: taken
 * before the task contacts anyone, given back when it fails or leaves the sender where it was. A sender
 * already unsubscribed needs none (the task only answers what was done).
 */
export async function withTrialAllowance<T>(
  { reserve, userId, sender, moved, log }: TrialAllowanceInput<T>,
  task: () => Promise<T>,
): Promise<T> {
  if (sender.category === 'unsubscribed') return task();
  const allowance = await reserve(userId, sender.id);
  const giveBack = async () => {
    try {
      await allowance.release();
    } catch (error) {
      log?.warn({ senderId: sender.id, err: (error as Error).message }, 'trial unsubscribe not given back');
    }
  };
  let answer: T;
  try {
    answer = await task();
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (!moved(answer)) await giveBack();
  return answer;
}
