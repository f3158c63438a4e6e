import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';

/** /genie/billing. Plans and the billing portal arrive with a later issue. */
export default function Billing() {
  return (
    <section>
      <PageHeader title="Billing" />
      <EmptyState />
    </section>
  );
}
