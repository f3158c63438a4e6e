// The two paid plans' cards with their "Choose Monthly/Yearly" buttons (Stripe Checkout): on the Billing
// screen's free plan and in the dialog a refused unsubscribe shows (plan-limit-dialog.tsx).
import Button from 'react-bootstrap/Button';
import { usePrices } from './api/prices';
import { useCheckout } from './api/stripe-links';
import { PlanCards, type PlanId } from './plan-cards';
import type { Interval } from './plans';

const PAID_PLANS: readonly PlanId[] = ['month', 'year'];

export function PaidPlans({ headingLevel }: { headingLevel: 2 | 3 }) {
  const { prices, failed } = usePrices();
  const checkout = useCheckout(prices);

  function action(plan: PlanId) {
    const interval = plan as Interval;
    const busy = checkout.busy && checkout.variables === interval;
    return (
      <Button
        variant="primary"
        className="w-100"
        disabled={checkout.busy}
        aria-busy={busy || undefined}
        onClick={() => checkout.start(interval)}
      >
        {busy ? 'Opening checkout…' : `Choose ${interval === 'month' ? 'Monthly' : 'Yearly'}`}
      </Button>
    );
  }

  return (
    <PlanCards
      plans={PAID_PLANS}
      prices={prices}
      showAmounts={!failed}
      action={action}
      headingLevel={headingLevel}
    />
  );
}
