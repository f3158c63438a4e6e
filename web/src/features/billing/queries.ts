// The billing data of the screens (docs/product.md §7): prices, the Billing screen's state, the
// subscription status of the sidebar, and the calls that leave for Stripe (Checkout, the portal).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { BillingState } from '#contract/api.js';
import {
  getBilling,
  getBillingPortalLink,
  getPaymentLink,
  getPrices,
  subscriptionStatus,
} from '../../api/calls';
import { analyticsClientId, track } from '../../lib/analytics';
import { queryKeys } from '../../lib/query-keys';
import { beginCheckoutParams, type Interval, type PlanPrices, pricesByInterval } from './plans';

/** Whether the user has an active subscription (GET /subscription-status); null until known. */
export function useHasSubscription({ enabled = true }: { enabled?: boolean } = {}): boolean | null {
  const { data } = useQuery({
    queryKey: queryKeys.subscriptionStatus,
    queryFn: async () => (await subscriptionStatus()).status === true,
    enabled,
  });
  return enabled ? (data ?? null) : null;
}

/**
 * The plans' prices (GET /get-prices, with the analytics client id when known); `prices` is null while
 * loading or when the call failed (`failed`; docs/product.md §8: only logged, the cards show no amounts).
 */
export function usePrices({ enabled = true }: { enabled?: boolean } = {}): {
  prices: PlanPrices | null;
  failed: boolean;
} {
  const { data, isError } = useQuery({
    queryKey: queryKeys.prices,
    queryFn: async () => pricesByInterval((await getPrices(await analyticsClientId())).data ?? []),
    staleTime: 5 * 60 * 1000,
    enabled,
    meta: { errorMessage: 'Failed to fetch prices...' },
  });
  return { prices: data ?? null, failed: isError };
}

/** GET /get-billing; `pollMs`: ask again every so often (a payment being confirmed), or false. */
export function useBilling(pollMs: (state: BillingState | undefined) => number | false) {
  return useQuery({
    queryKey: queryKeys.billing,
    queryFn: getBilling,
    refetchInterval: (query) => pollMs(query.state.data),
    meta: { errorMessage: 'Failed to fetch billing...' },
  });
}

/** Leaves for a URL the server answered; a failure is only logged (docs/product.md §8). */
function useLeaveFor<T>(call: (input: T) => Promise<{ url: string }>, errorMessage: string) {
  const mutation = useMutation({
    mutationFn: call,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => console.warn(errorMessage, error),
  });
  // A double click before the button shows its busy state must not start a second call.
  const running = useRef(false);
  // Back from Stripe with the browser's back button, the page may come from the back-forward cache,
  // still busy: it is usable again.
  const { reset } = mutation;
  useEffect(() => {
    function onPageShow(event: PageTransitionEvent) {
      if (!event.persisted) return;
      running.current = false;
      reset();
    }
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);
  return {
    /** Busy while the call runs and after it succeeded (the page is being left). */
    busy: mutation.isPending || mutation.isSuccess,
    variables: mutation.variables,
    start(input: T) {
      if (running.current) return;
      running.current = true;
      mutation.mutate(input, {
        onError: () => {
          running.current = false;
        },
      });
    },
  };
}

/** A paid plan's button: begin_checkout, then Stripe Checkout (POST /get-{monthly|yearly}-payment-link). */
export function useCheckout(prices: PlanPrices | null) {
  return useLeaveFor(async (interval: Interval) => {
    track('begin_checkout', beginCheckoutParams(interval, prices?.[interval] ?? null));
    return getPaymentLink(interval, window.location.href, await analyticsClientId());
  }, 'Failed to get the payment link...');
}

/** Manage billing: the Stripe billing portal (POST /get-billing-portal-link). */
export function useBillingPortal() {
  return useLeaveFor(
    () => getBillingPortalLink(window.location.href),
    'Failed to get the billing portal link...',
  );
}
