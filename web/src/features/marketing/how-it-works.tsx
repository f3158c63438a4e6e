import type { ReactNode } from 'react';
import { Card, Col, Container, Row } from 'react-bootstrap';
import { Link } from 'react-router';
import { ContactLink } from '../../components/contact';
import '../../styles/marketing.css';
import { useTrialOffered } from './trial-offered';

interface Step {
  id: string;
  title: string;
  summary: string;
}

const STEPS: Step[] = [
  {
    id: 'add-an-account',
    title: 'Add an email account',
    summary: 'Pick your provider and give Inbox Genie access to your mailbox.',
  },
  {
    id: 'keep-a-newsletter',
    title: 'Keep a newsletter',
    summary: 'Mark the subscriptions you want to go on receiving.',
  },
  {
    id: 'unsubscribe',
    title: 'Unsubscribe',
    summary: 'Get rid of the rest. Inbox Genie picks the best way out.',
  },
];

interface Method {
  id: string;
  title: string;
  body: ReactNode;
}

const METHODS: Method[] = [
  {
    id: 'one-click',
    title: '1. One-click unsubscribe',
    body: (
      <p>
        Most well-behaved senders support one-click unsubscribe, a standard (RFC 8058) that lets a mail
        program unsubscribe you with a single request. When a sender offers it, Inbox Genie uses it and you
        are done: the sender moves to your <strong>Unsubscribed</strong> list straight away.
      </p>
    ),
  },
  {
    id: 'mailto',
    title: '2. Unsubscribe request by email',
    body: (
      <p>
        Some senders ask you to email them to unsubscribe. Inbox Genie sends that request for you, from your
        own mailbox, to the address the sender gives, so the sender sees it come from you. Nothing else is
        sent and the request shows up in your Sent folder like any other message.
      </p>
    ),
  },
  {
    id: 'manual-link',
    title: '3. The sender’s unsubscribe page',
    body: (
      <>
        <p>
          When the only way out is a web page, Inbox Genie tells you that a manual unsubscription is required
          and offers to open the sender’s unsubscribe page in a new tab. Finish the steps there, then come
          back and confirm with <strong>Yes, Unsubscribed</strong>, or choose <strong>Not Yet</strong> to keep
          the sender on your list for later.
        </p>
        <p>
          Tired of the reminders? Tick <strong>Don’t remind me</strong> in either dialog, or turn the two
          alerts off in <strong>Settings</strong>, and Inbox Genie will simply open the page for you.
        </p>
      </>
    ),
  },
  {
    id: 'block',
    title: '4. Block the sender',
    body: (
      <p>
        If a sender gives no way to unsubscribe at all, Inbox Genie blocks it instead. It sets up a filter in
        your mailbox that sends the sender’s future mail straight to the trash, and moves the mail it has
        already sent you to the trash as well. Trashed mail stays in your mailbox’s trash folder until your
        provider empties it, so you can still get something back if you need to.
      </p>
    ),
  },
];

/** The page's title and what it covers. */
function StepsHeader() {
  return (
    <header className="mk-doc-header py-5">
      <Container>
        <span className="mk-eyebrow">How it works</span>
        <h1 className="mk-display mb-3">How Inbox Genie works</h1>
        <p className="mk-lead mb-0" style={{ maxWidth: '44rem' }}>
          Connect a mailbox, look through the senders that email you, and decide what stays. Three steps, and
          most of the work is done for you.
        </p>
      </Container>
    </header>
  );
}

/** The three steps, each a card that jumps to its section. */
function StepsNav() {
  return (
    <nav aria-label="Steps">
      <Row xs={1} md={3} className="g-3 mb-5">
        {STEPS.map((step, index) => (
          <Col key={step.id}>
            <Card className="mk-card">
              <Card.Body className="d-flex gap-3 p-3 p-md-4">
                <span className="mk-step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <div className="mk-min-w-0">
                  <a href={`#${step.id}`} className="stretched-link text-reset text-decoration-none">
                    <strong>{step.title}</strong>
                  </a>
                  <p className="text-body-secondary small mb-0 mt-1">{step.summary}</p>
                </div>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
    </nav>
  );
}

/** Step 1: connecting a mailbox, by provider, and the first scan. */
function AddAccountStep() {
  return (
    <section id="add-an-account" aria-labelledby="add-an-account-title">
      <h2 id="add-an-account-title">Step 1: Add an email account</h2>
      <p>
        <Link to="/signup">Sign up</Link> and choose your mail provider from the list: Gmail, Outlook, Yahoo,
        iCloud, AOL, or another mail host that supports IMAP. How you connect depends on the provider.
      </p>

      <h3>Gmail and Outlook: sign in with your provider</h3>
      <p>
        Press <strong>Sign in with Gmail</strong> or <strong>Sign in with Outlook</strong> and you are taken
        to Google’s or Microsoft’s own sign-in page (OAuth). There you approve the permissions Inbox Genie
        asks for and are sent back. Your password is never shown to Inbox Genie, and you can withdraw the
        access from your Google or Microsoft account at any time.
      </p>
      <ul>
        <li>
          Gmail: the <code>gmail.modify</code> scope, to read message headers, move mail to the trash and send
          unsubscribe requests, and the <code>gmail.settings.basic</code> scope, to create the filter that
          blocks a sender.
        </li>
        <li>
          Outlook: <code>Mail.ReadWrite</code>, <code>Mail.Send</code> and{' '}
          <code>MailboxSettings.ReadWrite</code>, for the same three jobs.
        </li>
      </ul>

      <h3>Yahoo, iCloud and AOL: use an app-specific password</h3>
      <p>
        These providers let you create an <strong>app-specific password</strong>: a separate password for one
        app, which you can revoke on its own without changing your real password. Create one in your
        provider’s account security settings (Inbox Genie links to the instructions for Yahoo and iCloud),
        then enter your email address and the app-specific password. Inbox Genie stores it encrypted and uses
        it only to reach your mailbox. The same works for any other host that offers IMAP access.
      </p>

      <h3>Then Inbox Genie gets to work</h3>
      <p>
        Inbox Genie looks through the headers of your messages, never their contents, and builds the list of{' '}
        <strong>Subscriptions to Review</strong>: one row per sender with the sender’s name, address and how
        many messages it has sent you. Sort it by newest messages or by most messages, search it by address,
        and open a sender to read a preview of any of its messages before you decide. Subscriptions keep
        arriving while the list loads, and every day Inbox Genie checks again for new senders, which appear on
        your screen as they are found.
      </p>
      <p>
        With a premium plan you can add more mailboxes under <strong>Email Accounts</strong> and manage all of
        them from one place.
      </p>
    </section>
  );
}

/** Step 2: Keep. */
function KeepStep() {
  return (
    <section id="keep-a-newsletter" aria-labelledby="keep-a-newsletter-title">
      <h2 id="keep-a-newsletter-title">Step 2: Keep a newsletter</h2>
      <p>
        Found something you actually read? Press <strong>Keep Subscription</strong>. The sender leaves the
        review list and moves to <strong>Screened Subscriptions</strong>, so the review list only ever holds
        senders you have not decided on yet. Nothing changes in your mailbox: the newsletter keeps arriving as
        before.
      </p>
      <p>
        Changed your mind later? Open Screened Subscriptions and unsubscribe from there. It works the other
        way round too: a sender in your Unsubscribed list can be moved back to the ones you keep.
      </p>
    </section>
  );
}

/** Step 3: Unsubscribe, and the four ways out it tries in turn. */
function UnsubscribeStep() {
  const trial = useTrialOffered();
  return (
    <section id="unsubscribe" aria-labelledby="unsubscribe-title">
      <h2 id="unsubscribe-title">Step 3: Unsubscribe</h2>
      <p>
        Press <strong>Unsubscribe</strong> and Inbox Genie reads the unsubscribe options the sender put in its
        messages, then uses the best one available, in this order:
      </p>
      {METHODS.map((method) => (
        <section key={method.id} id={method.id} aria-labelledby={`${method.id}-title`}>
          <h3 id={`${method.id}-title`}>{method.title}</h3>
          {method.body}
        </section>
      ))}
      <div className="mk-callout mt-4">
        <p>
          Every sender you unsubscribe from or block is listed under <strong>Unsubscribed</strong>, so you
          always know where each one went.
          {trial && (
            <>
              {' '}
              The free trial includes 10 free unsubscribes; premium plans unsubscribe without limit. See{' '}
              <Link to="/pricing">Pricing</Link>.
            </>
          )}
        </p>
      </div>
    </section>
  );
}

/** Where to read more or ask, and the way in. */
function Questions() {
  return (
    <section aria-labelledby="questions-title">
      <h2 id="questions-title">Questions?</h2>
      <p>
        Read how we handle your data in the <Link to="/privacy">Privacy Policy</Link>, or send us a message
        through the <ContactLink>Contact Us</ContactLink> form.
      </p>
      <Link to="/signup" className="btn btn-primary btn-lg mt-2">
        Get Started
      </Link>
    </section>
  );
}

export default function HowItWorks() {
  return (
    <div className="mk-page">
      <StepsHeader />
      <Container className="py-5">
        <StepsNav />
        <Row className="justify-content-center">
          <Col lg={9} xl={8} className="mk-prose">
            <AddAccountStep />
            <KeepStep />
            <UnsubscribeStep />
            <Questions />
          </Col>
        </Row>
      </Container>
    </div>
  );
}
