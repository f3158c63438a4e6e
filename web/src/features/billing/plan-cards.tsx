// The plan cards of /pricing and of the Billing screen (one component, two places): the free trial
// and Premium monthly and yearly (docs/product.md §1, §3, §9). What a button does is the caller's.
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import {
  FREE_TRIAL_FEATURES,
  type Interval,
  PLAN_NAMES,
  type PlanPrices,
  PREMIUM_FEATURES,
  priceLabel,
  yearlySavingsPercent,
} from './plans';
import './plans.css';

export type PlanId = 'free' | Interval;

interface PlanCardsProps {
  plans: readonly PlanId[];
  /** null: no amounts (loading, failed, or billing off). */
  prices: PlanPrices | null;
  /** Whether amounts are expected: "—" stands in for them until they arrive. */
  showAmounts: boolean;
  /** The button (or link) of each card. */
  action: (plan: PlanId) => ReactNode;
  /** h2 on /pricing, h3 inside the Billing screen. */
  headingLevel?: 2 | 3;
}

export function PlanCards({ plans, prices, showAmounts, action, headingLevel = 2 }: PlanCardsProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const savings = yearlySavingsPercent(prices?.month ?? null, prices?.year ?? null);
  return (
    <ul className="plan-cards list-unstyled" data-count={plans.length}>
      {plans.map((plan) => {
        const price = plan === 'free' ? null : (prices?.[plan] ?? null);
        const amount = plan === 'free' ? '$0' : price ? priceLabel(price) : showAmounts ? '—' : null;
        return (
          <li key={plan}>
            <Card className={`plan-card h-100${plan === 'year' ? ' plan-card-featured' : ''}`}>
              <Card.Body className="d-flex flex-column p-4">
                <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
                  <Heading className="h5 mb-0">
                    {plan === 'free' ? 'Free trial' : `Premium ${PLAN_NAMES[plan]}`}
                  </Heading>
                  {plan === 'year' && savings !== null && (
                    <Badge bg="success" pill>
                      Save {savings}%
                    </Badge>
                  )}
                </div>
                {amount !== null && (
                  <p className="plan-price mb-3" aria-busy={amount === '—' ? true : undefined}>
                    {amount === '—' ? (
                      <>
                        <span aria-hidden="true">—</span>
                        <span className="visually-hidden">Price not available yet</span>
                      </>
                    ) : (
                      amount
                    )}
                  </p>
                )}
                <ul className="plan-features mb-4">
                  {(plan === 'free' ? FREE_TRIAL_FEATURES : PREMIUM_FEATURES).map((feature) => (
                    <li key={feature}>{feature}</li>
                  ))}
                </ul>
                <div className="mt-auto">{action(plan)}</div>
              </Card.Body>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
