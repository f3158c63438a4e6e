import Card from 'react-bootstrap/Card';
import { ProviderPicker } from '../../components/provider-picker';
import { RequireSession } from '../../components/require-session';

const STEPS = [
  { title: 'Connect', text: 'Pick your email provider and give Inbox Genie access to your mailbox.' },
  {
    title: 'We scan headers only',
    text: 'We read the sender and subject lines to find newsletters — never the content of your messages.',
  },
  { title: 'Review your subscriptions', text: 'Keep the ones you like and unsubscribe from the rest.' },
];

/** /connect-mailbox: where a signed-in user without a mailbox starts. */
export default function ConnectMailbox() {
  return (
    <RequireSession>
      <div className="container py-5 connect-mailbox">
        <h1 className="text-center mb-4">Connect your first mailbox</h1>
        <ol className="connect-steps list-unstyled row g-3 mb-5">
          {STEPS.map((step, index) => (
            <li key={step.title} className="col-12 col-md-4">
              <div className="h-100 p-3 border rounded bg-light">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h2 className="h5 mt-2">{step.title}</h2>
                <p className="mb-0 text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <Card className="auth-card mx-auto shadow-sm">
          <Card.Body className="p-4">
            <ProviderPicker mode="add" headingLevel={2} />
          </Card.Body>
        </Card>
      </div>
    </RequireSession>
  );
}
