// Above the list while the free trial limits unsubscribes: how many are left, from the server
// (GET /get-billing), and the way to the plans inside the app.
import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { useFreeUnsubscribesLeft } from './api/billing-state';
import { freeLeftText } from './plans';

export function FreeUnsubscribesLeft() {
  const left = useFreeUnsubscribesLeft();
  if (left === null) return null;
  return (
    <p className={`small mb-2 free-left${left === 0 ? ' text-danger' : ' text-muted'}`}>
      {freeLeftText(left)} in your free trial. <Link to={SCREENS.billing}>See plans</Link>
    </p>
  );
}
