import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { SCREENS } from '../../../../contract/routes.js';
import { EmptyState } from './EmptyState';
import { PageHeader } from './PageHeader';

/** /genie/accounts. The account list arrives with a later issue. */
export default function Accounts() {
  const navigate = useNavigate();
  return (
    <section>
      <PageHeader title="Email Accounts">
        <Button variant="primary" onClick={() => navigate(SCREENS.addAccount)}>
          Add Email Account
        </Button>
      </PageHeader>
      <EmptyState />
    </section>
  );
}
