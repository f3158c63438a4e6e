import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useSearchParams } from 'react-router';
import type { BillingState } from '#contract/api.js';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useBilling } from './api/billing-state';
import { useBillingPortal } from './api/stripe-links';
import { SUBSCRIPTION_STATUS_KEY } from './api/subscription-status';
import { PaidPlans } from './paid-plans';
import {
  type CheckoutReturn,
  checkoutReturn,
  pendingPollInterval,
  periodLine,
  premiumName,
  usageLines,
} from './plans';

const WELCOME = 'Welcome to Premium! Add more mailboxes and unsubscribe without limits.';
const CONFIRMING = 'Your payment is being confirmed… This page updates as soon as it is.';
const STILL_CONFIRMING =
  'Your payment is still being confirmed. Your plan will show here once it is; reload this page in a minute.';

/**
 * The return from Stripe (`?checkout=success|pending`, set by the server's redirect): read once, then
 * the query is taken off the address so that a reload or a bookmark does not show it again.
 */
function useCheckoutReturn(): { result: CheckoutReturn; startedAt: number | null; dismiss: () => void } {
  const [params, setParams] = useSearchParams();
  const [result, setResult] = useState(() => checkoutReturn(params));
  const [startedAt] = useState(() => (result === 'pending' ? Date.now() : null));
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!params.has('checkout')) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('checkout');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);
  // Back from Stripe the plan may have changed: the sidebar's status is asked again (the Billing state
  // is fetched as the screen opens).
  useEffect(() => {
    if (result) void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_KEY });
  }, [result, queryClient]);
  return { result, startedAt, dismiss: () => setResult(null) };
}

/** /genie/billing: the plan, the trial's use, the paid plans, and the Stripe billing portal. */
export default function Billing() {
  const checkoutReturned = useCheckoutReturn();
  const [now, setNow] = useState(() => Date.now());
  const billing = useBilling((state) =>
    pendingPollInterval(checkoutReturned.startedAt, Date.now(), state?.plan),
  );
  const state = billing.data;
  const queryClient = useQueryClient();

  // The pending message turns into the final one after 30 s.
  useEffect(() => {
    if (checkoutReturned.startedAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 2000);
    return () => clearInterval(timer);
  }, [checkoutReturned.startedAt]);

  // Premium arrived (after a pending payment, or the portal's changes): the sidebar follows.
  const plan = state?.plan;
  useEffect(() => {
    if (plan) void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_KEY });
  }, [plan, queryClient]);

  let banner: { variant: string; text: string } | null = null;
  if (
    checkoutReturned.result === 'success' ||
    (checkoutReturned.result === 'pending' && plan === 'premium')
  ) {
    banner = { variant: 'success', text: WELCOME };
  } else if (checkoutReturned.result === 'pending') {
    const polling = pendingPollInterval(checkoutReturned.startedAt, now, plan) !== false;
    banner = { variant: polling ? 'info' : 'warning', text: polling ? CONFIRMING : STILL_CONFIRMING };
  }

  return (
    <section className="billing">
      <PageHeader title="Billing" />
      {banner && (
        <Alert variant={banner.variant} dismissible onClose={checkoutReturned.dismiss} role="status">
          {banner.text}
        </Alert>
      )}
      {state ? (
        <BillingDetails state={state} />
      ) : billing.isError ? (
        <p className="text-muted">Your plan could not be loaded. Please reload the page.</p>
      ) : (
        <Loading label="Loading billing…" />
      )}
    </section>
  );
}

function BillingDetails({ state }: { state: BillingState }) {
  if (!state.enabled) {
    return <p className="text-muted">Every feature is available without limits on this server.</p>;
  }
  if (state.plan === 'premium') return <PremiumPlan state={state} />;
  return <FreePlan state={state} />;
}

function ManageBilling() {
  const portal = useBillingPortal();
  return (
    <Button variant="outline-primary" disabled={portal.busy} onClick={() => portal.start(undefined)}>
      {portal.busy ? 'Opening…' : 'Manage billing'}
    </Button>
  );
}

function PremiumPlan({ state }: { state: BillingState }) {
  const period = periodLine(state);
  return (
    <Card className="billing-plan mb-4">
      <Card.Body className="p-4">
        <p className="text-body-secondary small text-uppercase fw-semibold mb-1">Your plan</p>
        <h2 className="h4">{premiumName(state.interval)}</h2>
        {period && <p className="mb-3">{period}</p>}
        <ManageBilling />
      </Card.Body>
    </Card>
  );
}

function FreePlan({ state }: { state: BillingState }) {
  const usage = usageLines(state.usage);

  return (
    <>
      <Card className="billing-plan mb-4">
        <Card.Body className="p-4">
          <p className="text-body-secondary small text-uppercase fw-semibold mb-1">Your plan</p>
          <h2 className="h4">Free trial</h2>
          {usage.length > 0 && (
            <ul className="mb-3">
              {usage.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          {state.hasCustomer && <ManageBilling />}
        </Card.Body>
      </Card>
      <h2 className="h5 mb-3">Upgrade to Premium</h2>
      <PaidPlans headingLevel={3} />
    </>
  );
}
