import { Card, Col, Row } from 'react-bootstrap';
import { Link } from 'react-router';
import { ContactLink } from '../../components/contact';
import '../../styles/marketing.css';
import { PolicyPage, type PolicySection } from './policy-page';

const SECTIONS: PolicySection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of these terms',
    body: (
      <p>
        These Terms of Service (“Terms”) govern your use of Inbox Genie, the website and web application that
        finds the newsletters and subscriptions in your mailboxes and helps you keep them or get rid of them
        (the “Service”). By creating an account or using the Service you agree to these Terms and to our{' '}
        <Link to="/privacy">Privacy Policy</Link>. If you do not agree, do not use the Service.
      </p>
    ),
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    body: (
      <p>
        You must be at least 18 years old to use Inbox Genie. By using the Service you confirm that you are 18
        or older and that you are able to enter into a binding agreement.
      </p>
    ),
  },
  {
    id: 'your-account',
    title: 'Your account and connected mailboxes',
    body: (
      <>
        <ul>
          <li>
            Give accurate information when you sign up, keep your password safe, and tell us promptly if you
            think someone else has used your account. You are responsible for activity under your account.
          </li>
          <li>
            Connect only mailboxes that you own or are authorised to manage. You can connect a mailbox by
            signing in with Google or Microsoft, or with an app-specific password for Yahoo, iCloud, AOL and
            other IMAP hosts.
          </li>
          <li>
            By connecting a mailbox you authorise Inbox Genie to act in it on your instructions: to read
            message headers, to send unsubscribe requests from your address, to create filters or rules that
            send a blocked sender’s mail to the trash, and to move mail to the trash.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'the-service',
    title: 'What the Service does and does not do',
    body: (
      <>
        <p>
          Inbox Genie tries to unsubscribe you using the method each sender offers: one-click unsubscribe, an
          email request sent from your mailbox, or the sender’s own unsubscribe page, which you complete
          yourself. When a sender offers no way to unsubscribe, Inbox Genie can block it by moving its mail to
          the trash. New subscriptions are looked for every day.
        </p>
        <p>
          Senders, not Inbox Genie, decide whether to honour an unsubscribe request, and some take several
          days to do so. We cannot guarantee that a sender will stop emailing you, that every subscription
          will be found, or that a message will never be classified wrongly. Mail moved to the trash may be
          emptied automatically by your mail provider, so check your trash if you block a sender by mistake.
        </p>
      </>
    ),
  },
  {
    id: 'plans-and-payment',
    title: 'Plans and payment',
    body: (
      <>
        <Row xs={1} md={2} className="g-3 mb-3">
          <Col>
            <Card body className="h-100">
              <h3 className="h5">Free trial</h3>
              <p className="h4 mb-2">$0</p>
              <ul className="mb-0">
                <li>1 email account</li>
                <li>10 free unsubscribes</li>
                <li>Initial load of your subscriptions</li>
              </ul>
            </Card>
          </Col>
          <Col>
            <Card body className="h-100">
              <h3 className="h5">Premium</h3>
              <p className="h4 mb-2">Monthly or yearly</p>
              <ul className="mb-0">
                <li>Multiple email accounts</li>
                <li>Unlimited unsubscribing</li>
                <li>Unlimited organising of your subscriptions</li>
              </ul>
            </Card>
          </Col>
        </Row>
        <ul>
          <li>
            Current prices are shown on the <Link to="/pricing">Pricing</Link> page and at checkout. Prices
            are in US dollars and may not include taxes that apply where you live.
          </li>
          <li>
            Payments are made by card through our payment provider. We do not store your card details. Your
            use of the payment provider’s checkout is also subject to its own terms.
          </li>
          <li>
            Premium plans renew automatically at the end of each month or year and the card on file is charged
            for the next period, until you cancel.
          </li>
          <li>
            You can cancel, change your card or view invoices at any time in the billing portal, reached from{' '}
            <strong>Billing</strong> in the app. When you cancel, your plan stays active until the end of the
            period you have paid for and is not renewed.
          </li>
          <li>
            We may change prices for future periods. We will tell you before a change affects a renewal, and
            you can cancel before it takes effect.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'refunds',
    title: 'Refunds',
    body: (
      <>
        <p>
          If you are not happy with a purchase, you can ask for a refund within 30 days of the purchase by
          writing to us through the <ContactLink>Contact Us</ContactLink> form. Refunds are not available:
        </p>
        <ul>
          <li>to repeat purchasers, meaning customers who have bought a plan from us before; or</li>
          <li>
            for a recurring charge (a renewal) if you cancelled your plan less than 2 business days before
            that charge was made. To avoid being charged for the next period, cancel at least 2 business days
            before your renewal date.
          </li>
        </ul>
        <p>Approved refunds are made to the card used for the purchase.</p>
      </>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>When using Inbox Genie you agree not to:</p>
        <ul>
          <li>connect a mailbox you do not own or are not authorised to manage;</li>
          <li>
            use the Service to send spam or unsolicited messages, or for anything unlawful or fraudulent;
          </li>
          <li>
            attempt to gain unauthorised access to the Service, other users’ accounts or our systems, or
            probe, scan or test their vulnerability without our permission;
          </li>
          <li>
            overload or disrupt the Service, including through automated requests, scraping or getting around
            rate limits or plan limits;
          </li>
          <li>copy, resell or reverse engineer the Service, except where the law expressly allows it;</li>
          <li>share your account with others or create accounts to get more free trials.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'third-parties',
    title: 'Third-party services',
    body: (
      <p>
        Inbox Genie works with services run by others, including your mail providers (such as Google,
        Microsoft, Yahoo, Apple and AOL), our payment provider and the senders of the mail you receive. Your
        use of those services is governed by their own terms, and we are not responsible for their
        availability, changes or actions, including a provider revoking or limiting access to your mailbox.
      </p>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    body: (
      <p>
        The Service, including its software, design and text, belongs to Inbox Genie and its licensors. We
        give you a personal, non-exclusive, non-transferable right to use it under these Terms. Your email and
        your data remain yours; you give us only the permission needed to process them to provide the Service,
        as described in the <Link to="/privacy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Ending your use of the Service',
    body: (
      <p>
        You can stop using Inbox Genie at any time and delete your account in <strong>Settings</strong>, which
        deletes your data as described in the Privacy Policy. If you have a paid plan, cancel it in the
        billing portal before deleting your account so that you are not charged for another period. We may
        suspend or close an account that breaks these Terms or puts the Service or other users at risk, and we
        will tell you why unless the law or security reasons prevent it.
      </p>
    ),
  },
  {
    id: 'disclaimer',
    title: 'Disclaimer of warranties',
    body: (
      <p>
        The Service is provided “as is” and “as available”. To the fullest extent permitted by law, we
        disclaim all warranties, express or implied, including warranties of merchantability, fitness for a
        particular purpose and non-infringement, and we do not promise that the Service will be uninterrupted,
        error-free or that it will meet every need you have.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <>
        <p>
          To the fullest extent permitted by law, Inbox Genie and its owners, employees and suppliers will not
          be liable for any indirect, incidental, special, consequential or punitive damages, or for any loss
          of data, messages, profits, revenue or goodwill, arising from or related to your use of, or
          inability to use, the Service, including mail that is moved to the trash or not received after you
          unsubscribe from or block a sender.
        </p>
        <p>
          Our total liability for any claim relating to the Service is limited to the amount you paid us for
          the Service in the 12 months before the event giving rise to the claim. Some jurisdictions do not
          allow certain limitations, so some of the above may not apply to you; nothing in these Terms limits
          liability that cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    id: 'indemnity',
    title: 'Indemnity',
    body: (
      <p>
        You agree to indemnify and hold Inbox Genie harmless from claims, losses and costs (including
        reasonable legal fees) arising from your breach of these Terms or your misuse of the Service,
        including connecting a mailbox you were not authorised to use.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these Terms from time to time. We will change the effective date at the top of this page
        and, for significant changes, tell you by email or in the app before they take effect. If you keep
        using the Service after the changes take effect, you accept the updated Terms.
      </p>
    ),
  },
  {
    id: 'questions',
    title: 'Contact us',
    body: (
      <p>
        Questions about these Terms, billing or refunds? Send us a message through the{' '}
        <ContactLink>Contact Us</ContactLink> form, also found at the bottom of every page.
      </p>
    ),
  },
];

export default function Terms() {
  return <PolicyPage title="Terms of Service" sections={SECTIONS} />;
}
