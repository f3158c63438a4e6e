import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient, globalNavigation } from './query-client';
import { SIGNIN_STATUS_KEY } from './query-keys';

describe('the global failure rule', () => {
  it('sends a 403 to sign-in and a 402 to pricing; anything else stays with the screen', () => {
    expect(globalNavigation(403)).toBe('signin');
    expect(globalNavigation(402)).toBe('pricing');
    for (const status of [null, 400, 401, 404, 409, 429, 500, 502])
      expect(globalNavigation(status)).toBeNull();
  });

  it('applies to queries and mutations alike', async () => {
    const onSessionLost = vi.fn();
    const onPlanRequired = vi.fn();
    const client = createQueryClient({ onSessionLost, onPlanRequired });
    await client
      .fetchQuery({
        queryKey: ['q'],
        queryFn: () => Promise.reject(new ApiError(402, 'limit')),
      })
      .catch(() => {});
    expect(onPlanRequired).toHaveBeenCalledTimes(1);
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError(402, 'limit')),
    });
    await mutation.execute(undefined).catch(() => {});
    expect(onPlanRequired).toHaveBeenCalledTimes(2);
    const lost = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(new ApiError(403, 'gone')),
    });
    await lost.execute(undefined).catch(() => {});
    expect(onSessionLost).toHaveBeenCalledTimes(1);
    expect(onPlanRequired).toHaveBeenCalledTimes(2);
  });

  it('leaves a 402 to a mutation that shows the plan dialog itself, and still sends its 403 to sign-in', async () => {
    const onSessionLost = vi.fn();
    const onPlanRequired = vi.fn();
    const client = createQueryClient({ onSessionLost, onPlanRequired });
    for (const status of [402, 403]) {
      const mutation = client.getMutationCache().build(client, {
        meta: { planDialog: true },
        mutationFn: () => Promise.reject(new ApiError(status, 'no')),
      });
      await mutation.execute(undefined).catch(() => {});
    }
    expect(onPlanRequired).not.toHaveBeenCalled();
    expect(onSessionLost).toHaveBeenCalledTimes(1);
  });

  it('records a lost session as signed out', async () => {
    const client = createQueryClient({ onSessionLost: () => {}, onPlanRequired: () => {} });
    client.setQueryData(SIGNIN_STATUS_KEY, true);
    await client
      .fetchQuery({ queryKey: ['q'], queryFn: () => Promise.reject(new ApiError(403, 'gone')) })
      .catch(() => {});
    expect(client.getQueryData(SIGNIN_STATUS_KEY)).toBe(false);
  });
});
