import type { ReactNode } from 'react';
import { Link } from 'react-router';
import '../../styles/marketing.css';
import { useTrialOffered } from './trial-offered';

type IconName =
  | 'search'
  | 'bolt'
  | 'bookmark'
  | 'ban'
  | 'clock'
  | 'inbox'
  | 'headers'
  | 'eye-off'
  | 'lock'
  | 'trash'
  | 'shield'
  | 'cursor';

const ICON_PATHS: Record<IconName, string> = {
  search: 'M4 11a7 7 0 1 0 14 0a7 7 0 1 0 -14 0 M21 21l-5.2-5.2',
  bolt: 'M13 2L4 14h7l-1 8l9-12h-7l1-8z',
  bookmark: 'M6 3h12v18l-6-4l-6 4z M9.5 9.5l2 2l3.5-4',
  ban: 'M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0 M5.6 5.6l12.8 12.8',
  clock: 'M3 12a9 9 0 1 0 18 0a9 9 0 1 0 -18 0 M12 7v5l3 2',
  inbox: 'M3 6h18v12H3z M3 7l9 6l9-6',
  headers: 'M5 3h10l4 4v14H5z M8 9h8 M8 13h8 M8 17h4',
  'eye-off':
    'M2 12s3.5-7 10-7s10 7 10 7s-3.5 7-10 7s-10-7-10-7z M9 12a3 3 0 1 0 6 0a3 3 0 1 0 -6 0 M3 3l18 18',
  lock: 'M5 11h14v10H5z M8 11V7a4 4 0 0 1 8 0v4 M12 15v2',
  trash: 'M4 7h16 M10 11v6 M14 11v6 M6 7l1 13h10l1-13 M9 7V4h6v3',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9c-4.5-1-8-4-8-9V6z M9 12l2 2l4-4',
  cursor: 'M5 3l14 7l-6 2l-2 6z M13 12l6 6',
};

function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="mk-icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

interface MockRow {
  initial: string;
  color: string;
  name: string;
  address: string;
  count: string;
  state: 'review' | 'kept' | 'unsubscribed';
}

const MOCK_ROWS: MockRow[] = [
  {
    initial: 'W',
    color: '#e4572e',
    name: 'The Weekly Deal',
    address: 'deals@weeklydeal.example',
    count: '124 Messages',
    state: 'review',
  },
  {
    initial: 'M',
    color: '#2e86ab',
    name: 'Morning Brief',
    address: 'news@morningbrief.example',
    count: '58 Messages',
    state: 'kept',
  },
  {
    initial: 'S',
    color: '#7b2cbf',
    name: 'Shop Rewards',
    address: 'offers@shoprewards.example',
    count: '31 Messages',
    state: 'unsubscribed',
  },
  {
    initial: 'T',
    color: '#2a9d8f',
    name: 'Trail Runners Club',
    address: 'hello@trailclub.example',
    count: '1 Message',
    state: 'review',
  },
];

function ProductMock() {
  return (
    <div className="mk-mock" aria-hidden="true">
      <div className="mk-mock-bar">
        <span className="mk-mock-dot" />
        <span className="mk-mock-dot" />
        <span className="mk-mock-dot" />
        <span className="mk-mock-title">Subscriptions to Review</span>
      </div>
      {MOCK_ROWS.map((row) => (
        <div className="mk-mock-row" key={row.address}>
          <span className="mk-mock-avatar" style={{ background: row.color }}>
            {row.initial}
          </span>
          <span className="mk-mock-sender">
            <strong>{row.name}</strong>
            <span>{row.address}</span>
            <span>{row.count}</span>
          </span>
          <span className="mk-mock-actions">
            {row.state === 'review' && (
              <>
                <span className="mk-pill mk-pill-keep">Keep</span>
                <span className="mk-pill mk-pill-drop">Unsubscribe</span>
              </>
            )}
            {row.state === 'kept' && <span className="mk-pill mk-pill-keep">Kept</span>}
            {row.state === 'unsubscribed' && <span className="mk-pill mk-pill-done">Unsubscribed</span>}
          </span>
        </div>
      ))}
    </div>
  );
}

interface Feature {
  icon: IconName;
  title: string;
  text: string;
  providers?: string[];
}

const FEATURES: Feature[] = [
  {
    icon: 'search',
    title: 'Find every subscription',
    text:
      'Inbox Genie scans your mailbox and lists every newsletter, promotion and mailing list by sender, ' +
      'with how many messages each one has sent you. Sort by newest or by volume and search by address.',
  },
  {
    icon: 'bolt',
    title: 'One-click unsubscribe',
    text:
      'Press Unsubscribe and Inbox Genie does the work: it uses the sender’s one-click unsubscribe ' +
      '(RFC 8058) or sends the unsubscribe request from your own mailbox. If only a web link exists, it opens ' +
      'the sender’s unsubscribe page for you.',
  },
  {
    icon: 'bookmark',
    title: 'Keep what you like',
    text:
      'Not every newsletter is clutter. Keep the ones you read and they move to your screened list, out ' +
      'of the way of the ones still waiting for a decision. You can change your mind at any time.',
  },
  {
    icon: 'ban',
    title: 'Block senders without a link',
    text:
      'Some senders give you no way out. For those, Inbox Genie sets up a filter that sends their future ' +
      'mail straight to the trash and moves the mail they already sent there too.',
  },
  {
    icon: 'clock',
    title: 'Daily checks, live updates',
    text:
      'New subscriptions are found every day. When a new sender turns up, it appears on your screen as it ' +
      'is found, with no need to reload the page.',
  },
  {
    icon: 'inbox',
    title: 'Works with your mailbox',
    text: 'Connect one mailbox or several, from the big providers or your own mail host.',
    providers: ['Gmail', 'Outlook', 'Yahoo', 'iCloud', 'AOL', 'Any IMAP host'],
  },
];

interface Pledge {
  icon: IconName;
  title: string;
  text: ReactNode;
}

const PLEDGES: Pledge[] = [
  {
    icon: 'headers',
    title: 'Headers only',
    text:
      'To find subscriptions Inbox Genie reads message headers (sender, subject, date and unsubscribe ' +
      'details). Message bodies are never stored.',
  },
  {
    icon: 'eye-off',
    title: 'We never read or sell your data',
    text: 'Your email is not read by people, not used for advertising and never sold to anyone.',
  },
  {
    icon: 'lock',
    title: 'Encrypted credentials',
    text:
      'Mailbox access tokens and app-specific passwords are stored encrypted. Your account password is ' +
      'stored only as a secure hash.',
  },
  {
    icon: 'trash',
    title: 'Delete everything, any time',
    text:
      'Remove a mailbox, or delete your account from Settings, and everything we stored about it is ' +
      'deleted with it.',
  },
  {
    icon: 'cursor',
    title: 'Nothing happens without you',
    text:
      'Inbox Genie never decides for you. It keeps, unsubscribes or blocks a sender only when you press the ' +
      'button for it.',
  },
  {
    icon: 'shield',
    title: 'Limited Gmail access',
    text: (
      <>
        For Gmail we ask only for the <code>gmail.modify</code> and <code>gmail.settings.basic</code> scopes:
        enough to move unwanted mail to the trash and to create the filter for blocked senders.
      </>
    ),
  },
];

/** What Inbox Genie does, the ways in, and a picture of the list. */
function Hero({ onContact, trial }: { onContact: () => void; trial: boolean }) {
  return (
    <section className="mk-hero mk-section" aria-labelledby="landing-title">
      <div className="container">
        <div className="row align-items-center g-4 g-lg-5">
          <div className="col-lg-6">
            <span className="mk-eyebrow">Newsletter and subscription cleaner</span>
            <h1 id="landing-title" className="mk-display mb-3">
              A calmer inbox, one sender at a time
            </h1>
            <p className="mk-lead mb-4">
              Inbox Genie finds the newsletters and subscriptions hiding in your Gmail, Outlook, Yahoo, iCloud
              and AOL mailboxes, lists them by sender, and lets you keep the ones you like and get rid of the
              rest in a click.
            </p>
            <div className="mk-hero-actions d-flex flex-wrap gap-3 mb-3">
              <Link to="/signup" className="btn btn-primary btn-lg">
                Get Started
              </Link>
              <button type="button" className="btn btn-outline-primary btn-lg" onClick={onContact}>
                Contact Us
              </button>
            </div>
            <p className="mk-hero-note mb-0">
              {trial ? 'Start with the free trial: one mailbox and 10 free unsubscribes. ' : ''}
              <Link to="/howitworks">See how it works</Link>.
            </p>
          </div>
          <div className="col-lg-6">
            <ProductMock />
          </div>
        </div>
      </div>
    </section>
  );
}

/** What it does, feature by feature. */
function Features() {
  return (
    <section className="mk-section" aria-labelledby="features-title">
      <div className="container">
        <div className="text-center mb-5">
          <span className="mk-eyebrow">Features</span>
          <h2 id="features-title" className="mk-section-title">
            Everything you need to clear out the clutter
          </h2>
          <p className="mk-section-intro mb-0">
            Decide once for each sender, and Inbox Genie takes care of the rest.
          </p>
        </div>
        <div className="row row-cols-1 row-cols-md-2 row-cols-lg-3 g-4">
          {FEATURES.map((feature) => (
            <div className="col" key={feature.title}>
              <div className="card mk-card">
                <div className="card-body p-3 p-md-4">
                  <span className="mk-icon-badge mb-3">
                    <Icon name={feature.icon} />
                  </span>
                  <h3 className="card-title">{feature.title}</h3>
                  <p className="card-text">{feature.text}</p>
                  {feature.providers && (
                    <ul className="mk-providers" aria-label="Supported mailboxes">
                      {feature.providers.map((provider) => (
                        <li key={provider}>{provider}</li>
                      ))}
                    </ul>
                  )}
                </div>
              </div>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}

/** What it does with the access to a mailbox, and what it never does. */
function Security() {
  return (
    <section className="mk-security mk-section" data-bs-theme="dark" aria-labelledby="security-title">
      <div className="container">
        <div className="row g-4 g-lg-5 align-items-start">
          <div className="col-lg-4">
            <span className="mk-eyebrow">Security and privacy</span>
            <h2 id="security-title" className="mk-section-title mb-3">
              Your mail stays yours
            </h2>
            <p className="text-body-secondary">
              Inbox Genie needs access to your mailbox to do its job, and it uses that access for nothing
              else. Here is what that means in practice.
            </p>
            <Link to="/privacy" className="btn btn-outline-light">
              Read the Privacy Policy
            </Link>
          </div>
          <div className="col-lg-8">
            <div className="row row-cols-1 row-cols-md-2 g-3">
              {PLEDGES.map((pledge) => (
                <div className="col" key={pledge.title}>
                  <div className="card mk-card">
                    <div className="card-body d-flex gap-3 p-3 p-md-4">
                      <span className="mk-icon-badge">
                        <Icon name={pledge.icon} />
                      </span>
                      <div className="mk-min-w-0">
                        <h3 className="card-title">{pledge.title}</h3>
                        <p className="card-text mb-0">{pledge.text}</p>
                      </div>
                    </div>
                  </div>
                </div>
              ))}
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

/** The last word: sign up. */
function CallToAction({ trial }: { trial: boolean }) {
  return (
    <section className="mk-section" aria-labelledby="cta-title">
      <div className="container">
        <div className="mk-cta text-center">
          <h2 id="cta-title" className="mk-section-title mb-3">
            Ready for an inbox with only the mail you want?
          </h2>
          <p className="mk-section-intro mb-4">
            Connect a mailbox in a minute and see every subscription you have.
            {trial && ' The free trial costs nothing.'}
          </p>
          <Link to="/signup" className="btn btn-light btn-lg px-5">
            Get Started
          </Link>
        </div>
      </div>
    </section>
  );
}

// Bootstrap's grid and card markup written out rather than react-bootstrap's wrappers: this is the page
// most first visits start on, and the wrappers were a third of its chunk (docs/decisions/044-fast-first-load.md).
export default function Landing({ onContact }: { onContact: () => void }) {
  const trial = useTrialOffered();
  return (
    <div className="mk-page">
      <Hero onContact={onContact} trial={trial} />
      <Features />
      <Security />
      <CallToAction trial={trial} />
    </div>
  );
}
