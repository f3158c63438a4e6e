import Card from 'react-bootstrap/Card';
import { OAuthError } from '../../components/OAuthError';
import { ProviderPicker } from '../../components/ProviderPicker';

/** /genie/add-account: the provider picker titled Add an Email Account. */
export default function AddAccount() {
  return (
    <Card className="auth-card mx-auto shadow-sm">
      <Card.Body className="p-4">
        <OAuthError />
        <ProviderPicker mode="add" />
      </Card.Body>
    </Card>
  );
}
