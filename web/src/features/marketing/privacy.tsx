import type { ReactNode } from 'react';
import { Card } from 'react-bootstrap';
import { Link } from 'react-router';
import { ContactLink } from '../../components/contact';
import '../../styles/marketing.css';
import { PolicyPage, type PolicySection } from './policy-page';

const GOOGLE_USER_DATA_POLICY = 'https://developers.google.com/terms/api-services-user-data-policy';
const GOOGLE_PERMISSIONS = 'https://myaccount.google.com/permissions';

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

const SECTIONS: PolicySection[] = [
  {
    id: 'overview',
    title: 'Overview',
    body: (
      <>
        <p>
          Inbox Genie (“Inbox Genie”, “we”, “us”) is a web application that finds the newsletters and
          subscriptions in the mailboxes you connect, lists them by sender, and lets you keep each one or get
          rid of it. This Privacy Policy explains what information we collect, why, how we protect it, who we
          share it with and how you can delete it. It applies to our website and to the Inbox Genie
          application.
        </p>
        <div className="mk-callout">
          <p>
            <strong>In short:</strong> we read only the headers of your messages to find subscriptions, we
            never store message bodies, we never sell your data or use it for advertising, your mailbox
            credentials are stored encrypted, and you can delete everything at any time.
          </p>
        </div>
      </>
    ),
  },
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <>
        <h3>Your Inbox Genie account</h3>
        <ul>
          <li>The email address you sign up with.</li>
          <li>
            Your password, stored only as a one-way cryptographic hash. We cannot see or recover it. If you
            sign in with Google or Microsoft instead, we do not receive a password at all.
          </li>
          <li>Your settings, such as whether to show the manual-unsubscribe and confirmation alerts.</li>
        </ul>

        <h3>Connected mailboxes</h3>
        <ul>
          <li>The email address of each mailbox you connect and its provider.</li>
          <li>
            The credentials needed to reach it: OAuth access and refresh tokens for Gmail and Outlook, or the
            app-specific password you create for Yahoo, iCloud, AOL or another IMAP host. These are always
            stored encrypted.
          </li>
        </ul>

        <h3>Information about your subscriptions</h3>
        <p>
          To find and manage subscriptions we read message headers, such as the sender, subject, date and the
          sender’s unsubscribe details (the <code>List-Unsubscribe</code> headers). From them we store:
        </p>
        <ul>
          <li>sender email addresses and sender names;</li>
          <li>message identifiers, subjects and dates;</li>
          <li>
            the unsubscribe options a sender offers, and the decisions you make (kept, unsubscribed, blocked).
          </li>
        </ul>
        <p>
          <strong>We never store the bodies of your messages.</strong> When you choose to read a preview of a
          message, it is fetched from your mailbox provider and shown to you; it is not kept.
        </p>

        <h3>Billing</h3>
        <p>
          If you buy a premium plan, your card payment is handled by our payment provider. We never see or
          store your full card number. We keep a reference to your customer record and the status of your
          plan.
        </p>

        <h3>Messages you send us</h3>
        <p>
          When you use the Contact Us form we receive your name, email address, subject and message so that we
          can reply.
        </p>

        <h3>Technical information</h3>
        <p>
          Our servers record basic technical information such as IP addresses, browser type and request times,
          which we use to run the service, limit abuse and fix problems. We use a session cookie to keep you
          signed in and a security token to protect forms against cross-site request forgery. We also use an
          analytics service to count events such as sign-ups and plan purchases; no mailbox data is ever sent
          to analytics.
        </p>
      </>
    ),
  },
  {
    id: 'how-we-use-information',
    title: 'How we use information',
    body: (
      <>
        <p>We use the information above only to provide and improve Inbox Genie:</p>
        <ul>
          <li>to find the subscriptions in your mailboxes and list them by sender;</li>
          <li>
            to check your mailboxes for new subscriptions every day and show them to you as they are found;
          </li>
          <li>
            to carry out the actions you ask for: unsubscribing with one click, sending an unsubscribe request
            from your own mailbox, opening a sender’s unsubscribe page, and blocking senders;
          </li>
          <li>
            to run your account, take payments, answer your messages and send you service emails such as a
            password reset;
          </li>
          <li>to keep the service secure and prevent abuse.</li>
        </ul>
        <p>
          We do <strong>not</strong> read your email for any other purpose, we do <strong>not</strong> use
          your data for advertising, and we <strong>never sell</strong> your data to anyone.
        </p>
      </>
    ),
  },
  {
    id: 'google-user-data',
    title: 'Google user data (Gmail)',
    body: (
      <>
        <p>
          When you connect a Gmail account, you sign in with Google and approve the following permissions
          (scopes). We ask for nothing more than Inbox Genie needs:
        </p>
        <Card body className="mb-3">
          <h3 className="h6 mb-1">
            <code>https://www.googleapis.com/auth/gmail.modify</code>
          </h3>
          <p className="mb-0">
            Lets Inbox Genie read the headers of your messages to find subscriptions, move and label mail (for
            example, moving the mail of a sender you block to the trash), and send an unsubscribe request by
            email from your mailbox when a sender asks for one. This scope does not allow permanently deleting
            mail.
          </p>
        </Card>
        <Card body className="mb-3">
          <h3 className="h6 mb-1">
            <code>https://www.googleapis.com/auth/gmail.settings.basic</code>
          </h3>
          <p className="mb-0">
            Lets Inbox Genie create the Gmail filter that sends a blocked sender’s future mail straight to the
            trash. It is used only when you block a sender.
          </p>
        </Card>
        <h3>Limited Use</h3>
        <p>
          Inbox Genie’s use and transfer to any other app of information received from Google APIs will adhere
          to the{' '}
          <ExternalLink href={GOOGLE_USER_DATA_POLICY}>Google API Services User Data Policy</ExternalLink>,
          including the Limited Use requirements. In particular:
        </p>
        <ul>
          <li>
            we use Gmail data only to provide and improve the user-facing features described in this policy;
          </li>
          <li>
            we do not transfer Gmail data to others except as necessary to provide those features, to comply
            with applicable law, or as part of a merger, acquisition or sale of assets with notice to you;
          </li>
          <li>
            we do not use or transfer Gmail data for serving advertisements, including personalised ads;
          </li>
          <li>
            we do not sell Gmail data, and we do not use it to determine credit-worthiness or for lending;
          </li>
          <li>
            no person at Inbox Genie reads your Gmail data unless you have given us your explicit permission
            for specific messages (for example, to look into a support request), it is necessary for security
            purposes such as investigating abuse, or it is required by law.
          </li>
        </ul>
        <p>
          You can withdraw Inbox Genie’s access at any time from your{' '}
          <ExternalLink href={GOOGLE_PERMISSIONS}>Google Account permissions page</ExternalLink>, in addition
          to removing the mailbox in Inbox Genie.
        </p>
      </>
    ),
  },
  {
    id: 'microsoft-data',
    title: 'Microsoft data (Outlook)',
    body: (
      <>
        <p>When you connect an Outlook account, you sign in with Microsoft and approve these permissions:</p>
        <ul>
          <li>
            <code>Mail.ReadWrite</code>: to read message headers to find subscriptions and to move a blocked
            sender’s mail to the deleted items folder;
          </li>
          <li>
            <code>Mail.Send</code>: to send an unsubscribe request by email from your mailbox when a sender
            asks for one;
          </li>
          <li>
            <code>MailboxSettings.ReadWrite</code>: to create the inbox rule that sends a blocked sender’s
            future mail to the deleted items folder.
          </li>
        </ul>
        <p>
          We treat Microsoft data exactly like Gmail data: it is used only for the features above, never for
          advertising and never sold. You can withdraw access at any time in your Microsoft account’s app
          permissions.
        </p>
      </>
    ),
  },
  {
    id: 'other-mailboxes',
    title: 'Yahoo, iCloud, AOL and other IMAP mailboxes',
    body: (
      <p>
        For these mailboxes you give us an app-specific password that you create with your provider. We store
        it encrypted and use it only to connect to your mailbox over IMAP (and to send unsubscribe requests by
        email when a sender asks for one), for the same purposes and under the same rules as Gmail and Outlook
        data. You can revoke an app-specific password at any time in your provider’s account settings.
      </p>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share information',
    body: (
      <>
        <p>We share information only in these cases:</p>
        <ul>
          <li>
            <strong>Service providers</strong> that help us run Inbox Genie, such as hosting, email delivery
            for our own service emails, analytics and card payments. They may use the information only to
            provide their service to us.
          </li>
          <li>
            <strong>Sender logos.</strong> To show the logo next to a sender, your browser asks a logo service
            for the logo of the sender’s domain (for example, <code>example.com</code>). The request contains
            only that domain, never your email address or the sender’s full address.
          </li>
          <li>
            <strong>Senders you unsubscribe from.</strong> Unsubscribing necessarily tells the sender that you
            no longer want its mail, through its one-click address, an email sent from your mailbox, or its
            own web page.
          </li>
          <li>
            <strong>Legal reasons</strong>, when the law requires it or to protect the rights, property or
            safety of our users or others.
          </li>
          <li>
            <strong>Business transfers</strong>, if Inbox Genie is merged or sold, in which case this policy
            continues to apply to your information and we will tell you beforehand.
          </li>
        </ul>
        <p>We never sell your information and never share it for advertising.</p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect information',
    body: (
      <ul>
        <li>Mailbox access tokens and app-specific passwords are encrypted before they are stored.</li>
        <li>Account passwords are stored only as salted one-way hashes.</li>
        <li>All traffic between your browser and Inbox Genie is encrypted (HTTPS).</li>
        <li>Requests are protected against cross-site request forgery and rate-limited against abuse.</li>
        <li>Access to production systems is limited to the people who need it to run the service.</li>
      </ul>
    ),
  },
  {
    id: 'retention-and-deletion',
    title: 'Keeping and deleting your data',
    body: (
      <>
        <p>
          We keep your information for as long as your account is open, and you can delete it at any time:
        </p>
        <ul>
          <li>
            <strong>Remove a mailbox:</strong> in <strong>Email Accounts</strong>, press{' '}
            <strong>Remove</strong> next to the mailbox. Its credentials and the subscription data we found in
            it are deleted.
          </li>
          <li>
            <strong>Delete your account:</strong> in <strong>Settings</strong>, press{' '}
            <strong>Delete Account</strong> and confirm. Your account, your connected mailboxes, their
            credentials, and all subscription data are deleted.
          </li>
          <li>
            <strong>Ask us:</strong> send a request through the <ContactLink>Contact Us</ContactLink> form and
            we will delete your data for you.
          </li>
        </ul>
        <p>
          Deleting your data in Inbox Genie does not undo changes already made in your mailbox, such as
          filters we created for blocked senders; you can remove those in your mailbox’s settings. Records of
          payments are kept by our payment provider as long as the law requires.
        </p>
      </>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your choices and rights',
    body: (
      <p>
        Depending on where you live, you may have the right to access, correct, export or delete your personal
        information, or to object to or restrict how we use it. You can do most of this yourself in the app;
        for anything else, contact us through the <ContactLink>Contact Us</ContactLink> form and we will
        respond as soon as we can.
      </p>
    ),
  },
  {
    id: 'age',
    title: 'Age requirement',
    body: (
      <p>
        You must be 18 years of age or older to use Inbox Genie. We do not knowingly collect information from
        anyone under 18. If you believe someone under 18 has given us information, please contact us and we
        will delete it.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We may update this Privacy Policy from time to time. When we do, we will change the effective date at
        the top of this page, and if the changes are significant we will tell you by email or in the app
        before they take effect.
      </p>
    ),
  },
  {
    id: 'questions',
    title: 'Contact us',
    body: (
      <p>
        Questions about this policy or about your data? Send us a message through the{' '}
        <ContactLink>Contact Us</ContactLink> form, also found at the bottom of every page. See also our{' '}
        <Link to="/terms">Terms of Service</Link>.
      </p>
    ),
  },
];

export default function Privacy() {
  return <PolicyPage title="Privacy Policy" sections={SECTIONS} />;
}
