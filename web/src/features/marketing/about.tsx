import { Card, Col, Container, Row } from 'react-bootstrap';
import { Link } from 'react-router';
import { ContactLink } from '../../components/contact';
import '../../styles/marketing.css';

interface Value {
  title: string;
  text: string;
}

const VALUES: Value[] = [
  {
    title: 'You decide, sender by sender',
    text:
      'Inbox Genie never unsubscribes you from anything on its own. It shows you who is emailing you and how ' +
      'often, and acts only when you press Keep or Unsubscribe.',
  },
  {
    title: 'Do the tedious part for you',
    text:
      'Finding the tiny unsubscribe link, filling in a form, writing an email to a mailing list: Inbox Genie ' +
      'handles whichever method the sender offers, and blocks the senders that offer none.',
  },
  {
    title: 'Stay on top of it',
    text:
      'Subscriptions creep back in. Inbox Genie checks for new ones every day, so a clean inbox stays clean ' +
      'without another spring clean.',
  },
];

const PRIVACY_PROMISE: string[] = [
  'We read only message headers to find your subscriptions, and we never store the bodies of your messages.',
  'We never read your email for any other purpose, and we never sell your data or use it for advertising.',
  'Mailbox access tokens and app-specific passwords are stored encrypted; your account password is stored only as a hash.',
  'For Gmail we ask only for the modify and basic-settings permissions, which is what moving mail to the trash and blocking a sender takes.',
  'Remove a mailbox or delete your account at any time, and everything we stored about it goes with it.',
];

/** The page's title and what Inbox Genie is, in a sentence. */
function AboutHeader() {
  return (
    <header className="mk-doc-header py-5">
      <Container>
        <span className="mk-eyebrow">About us</span>
        <h1 className="mk-display mb-3">About Inbox Genie</h1>
        <p className="mk-lead mb-0" style={{ maxWidth: '44rem' }}>
          Inbox Genie finds the newsletters and subscriptions in your mailboxes and lets you keep each one or
          get rid of it, without giving up your privacy to do so.
        </p>
      </Container>
    </header>
  );
}

/** What Inbox Genie is, why it exists, and what we believe. */
function Story() {
  return (
    <Col lg={7} className="mk-prose">
      <section aria-labelledby="what-title">
        <h2 id="what-title">What Inbox Genie is</h2>
        <p>
          Inbox Genie is a web app for anyone whose inbox has filled up with mail they never really asked for.
          Connect a Gmail, Outlook, Yahoo, iCloud or AOL mailbox, or any mailbox that supports IMAP, and Inbox
          Genie lists every newsletter, promotion and mailing list in it by sender, with how many messages
          each one has sent you.
        </p>
        <p>
          For each sender you make one decision. Keep it, and it moves to your screened list. Unsubscribe, and
          Inbox Genie uses the sender’s one-click unsubscribe or sends the unsubscribe request from your own
          mailbox; if the sender only offers a web page, it opens that page for you; and if the sender offers
          no way out at all, it blocks it, sending its future mail and the mail it already sent to the trash.
        </p>
      </section>

      <section aria-labelledby="why-title">
        <h2 id="why-title">Why it exists</h2>
        <p>
          Every online shop, app and service wants to stay in touch, and a single purchase or sign-up can turn
          into years of weekly email. Unsubscribing one sender at a time means opening a message, hunting for
          a link in tiny grey text at the bottom, and sometimes filling in a form, and there are always more.
          Meanwhile the messages that matter get lost among the ones that don’t.
        </p>
        <p>
          An app with access to your mailbox could learn a great deal about you. We built Inbox Genie so that
          it doesn’t need to: it does one thing, clearing out the subscriptions you don’t want, it looks only
          at what that job requires, and it earns its living from a simple paid plan, not from your data.
        </p>
      </section>

      <section aria-labelledby="how-title">
        <h2 id="how-title">What we believe</h2>
        <Row xs={1} className="g-3">
          {VALUES.map((value) => (
            <Col key={value.title}>
              <Card className="mk-card">
                <Card.Body className="p-4">
                  <Card.Title as="h3" className="mt-0">
                    {value.title}
                  </Card.Title>
                  <Card.Text>{value.text}</Card.Text>
                </Card.Body>
              </Card>
            </Col>
          ))}
        </Row>
      </section>
    </Col>
  );
}

/** Beside the story: the privacy promise, and how to get in touch. */
function PrivacyPromise() {
  return (
    <Col lg={5}>
      <Card className="mk-card h-auto">
        <Card.Body className="p-4">
          <h2 className="h4 fw-bold mb-3">Our privacy promise</h2>
          <ul className="mk-checklist mb-4">
            {PRIVACY_PROMISE.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className="text-body-secondary mb-0">
            The full details are in our <Link to="/privacy">Privacy Policy</Link> and{' '}
            <Link to="/terms">Terms of Service</Link>.
          </p>
        </Card.Body>
      </Card>

      <Card className="mk-card h-auto mt-4">
        <Card.Body className="p-4">
          <h2 className="h4 fw-bold mb-2">Get in touch</h2>
          <p className="text-body-secondary">
            Questions, ideas, or a mail provider you would like us to support? We would love to hear from you
            through the <ContactLink>Contact Us</ContactLink> form.
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Link to="/signup" className="btn btn-primary">
              Get Started
            </Link>
            <Link to="/howitworks" className="btn btn-outline-primary">
              How it Works
            </Link>
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

export default function About() {
  return (
    <div className="mk-page">
      <AboutHeader />
      <Container className="py-5">
        <Row className="g-4 g-lg-5">
          <Story />
          <PrivacyPromise />
        </Row>
      </Container>
    </div>
  );
}
