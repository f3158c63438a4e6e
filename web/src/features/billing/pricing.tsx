import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { Link, useNavigate } from 'react-router';
import { BILLING_MESSAGES } from '#contract/billing.js';
import { SCREENS } from '#contract/routes.js';
import { usePublicConfig } from '../../lib/public-config';
import { useSession } from '../../lib/session';
import { signupReturningTo } from '../auth';
import '../../styles/marketing.css';
import { usePrices } from './api/prices';
import { useCheckout } from './api/stripe-links';
import { useHasSubscription } from './api/subscription-status';
import { PlanCards, type PlanId } from './plan-cards';

const PLANS: readonly PlanId[] = ['free', 'month', 'year'];

/**
 * /pricing (docs/product.md §2, §7): the free trial and Premium monthly and yearly. A paid plan's button
 * leads to Stripe Checkout, or to sign-up first (and back here after). Without billing on this server
 * the cards are information only and every button is Get Started.
 */
export default function Pricing() {
  const navigate = useNavigate();
  const publicConfig = usePublicConfig();
  const { signedIn } = useSession();
  const billing = publicConfig.status === 'ready' && publicConfig.config?.billing === true;
  const { prices, failed } = usePrices({ enabled: billing });
  const subscribed = useHasSubscription({ enabled: billing && signedIn === true });
  const checkout = useCheckout(prices);
  const configKnown = publicConfig.status === 'ready';

  function getStarted(label = 'Get Started') {
    return (
      <Link to={SCREENS.signup} className="btn btn-outline-primary w-100">
        {label}
      </Link>
    );
  }

  function action(plan: PlanId) {
    if (plan === 'free' || !billing) return getStarted();
    if (subscribed) {
      return (
        <Link to={SCREENS.billing} className="btn btn-outline-primary w-100">
          Manage your plan
        </Link>
      );
    }
    const busy = checkout.busy && checkout.variables === plan;
    return (
      <Button
        variant="primary"
        className="w-100"
        disabled={checkout.busy || signedIn === null}
        aria-busy={busy || undefined}
        onClick={() => {
          if (signedIn) checkout.start(plan);
          else navigate(signupReturningTo(SCREENS.pricing));
        }}
      >
        {busy ? 'Opening checkout…' : `Choose ${plan === 'month' ? 'Monthly' : 'Yearly'}`}
      </Button>
    );
  }

  return (
    <div className="mk-page">
      <header className="mk-doc-header py-5">
        <Container>
          <span className="mk-eyebrow">Pricing</span>
          <h1 className="mk-display mb-3">Plans for a quieter inbox</h1>
          <p className="mk-lead mb-0" style={{ maxWidth: '44rem' }}>
            Start with the free trial. Go Premium for several mailboxes and unsubscribing without limits.
          </p>
        </Container>
      </header>
      <Container className="py-5">
        {configKnown && !billing && (
          <Alert variant="info" className="mb-4">
            {BILLING_MESSAGES.unavailable}
          </Alert>
        )}
        {subscribed && (
          <Alert variant="success" className="mb-4">
            You have Premium. See your plan under <Link to={SCREENS.billing}>Billing</Link>.
          </Alert>
        )}
        <PlanCards plans={PLANS} prices={prices} showAmounts={billing && !failed} action={action} />
        {billing && (
          <p className="text-body-secondary small mt-4 mb-0">
            Prices in US dollars. Cancel any time from Billing; see the{' '}
            <Link to={SCREENS.terms}>Terms of Service</Link> for refunds.
          </p>
        )}
      </Container>
    </div>
  );
}
