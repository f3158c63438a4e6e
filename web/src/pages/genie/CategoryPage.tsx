import { Navigate, useParams } from 'react-router';
import { SCREENS } from '../../../../contract/routes.js';
import { CATEGORY_VIEWS, isCategoryRoute } from './categories';
import { EmptyState } from './EmptyState';
import { PageHeader } from './PageHeader';

/** /genie/:category. The subscription list itself arrives with the next issue. */
export default function CategoryPage() {
  const { category } = useParams();
  if (!isCategoryRoute(category)) return <Navigate to={SCREENS.subscriptions} replace />;
  const view = CATEGORY_VIEWS[category];
  const count = 0;
  return (
    <section>
      <PageHeader title={view.heading} />
      <p className="text-muted">
        {count} {view.caption}
      </p>
      <EmptyState />
    </section>
  );
}
