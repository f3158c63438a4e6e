import { Navigate, useParams } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { CATEGORY_VIEWS, isCategoryRoute } from './categories';
import { SubscriptionScreen } from './subscription-screen';

/** /genie/:category: the subscription list of that category; unknown values go to /genie/subscriptions. */
export default function CategoryPage() {
  const { category } = useParams();
  if (!isCategoryRoute(category)) return <Navigate to={SCREENS.subscriptions} replace />;
  const view = CATEGORY_VIEWS[category];
  // A new category starts afresh: its own list, sort and search.
  return <SubscriptionScreen key={view.category} view={view} />;
}
