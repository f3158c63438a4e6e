import { lazy, Suspense } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import type { BrandListProps } from '../brands/brand-list';

// The list grouped by brand comes with the first "Group by brand".
const BrandList = lazy(() => import('../brands/brand-list'));

/** The list grouped by brand ("Group by brand"), with a spinner while its code loads. */
export function GroupedList(props: BrandListProps) {
  return (
    <Suspense
      fallback={
        <Spinner animation="border" size="sm" variant="primary" role="status">
          <span className="visually-hidden">Loading brands…</span>
        </Spinner>
      }
    >
      <BrandList {...props} />
    </Suspense>
  );
}
