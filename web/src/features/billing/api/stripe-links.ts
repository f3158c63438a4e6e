// The calls that leave for Stripe: Checkout for a paid plan, and the billing portal.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { urlResponseSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { analyticsClientId, track } from '../../../lib/analytics';
import { api } from '../../../lib/api-client';
import { beginCheckoutParams, type Interval, type PlanPrices } from '../plans';
import { analyticsHeaders } from './prices';

/** Checkout for the monthly or yearly plan; `originalUrl`: where Checkout's cancel leads back. */
export const getPaymentLink = (interval: Interval, originalUrl: string, clientId: string | null) =>
  api.post(
    interval === 'month' ? API.monthlyPaymentLink : API.yearlyPaymentLink,
    { originalUrl },
    urlResponseSchema,
    analyticsHeaders(clientId),
  );

/** The Stripe billing portal; `originalUrl`: where it leads back. */
export const getBillingPortalLink = (originalUrl: string) =>
  api.post(API.billingPortalLink, { originalUrl }, urlResponseSchema);

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
