import Card from 'react-bootstrap/Card';
import { OAuthError } from '../../components/oauth-error';
import { ProviderPicker } from '../../components/provider-picker';

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
