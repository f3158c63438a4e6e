import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { SCREENS } from '#contract/routes.js';
import { analytics, type Consent, trackAuthRedirect } from '../lib/analytics';
import { usePublicConfig } from '../lib/public-config';

/**
 * Hands the server's measurement id to analytics.ts and asks for consent once (docs/decisions/042-analytics-only-with-consent.md): Accept loads Google Analytics, Decline is remembered, × hides the question for this visit
 * (nothing is loaded). Without a measurement id nothing shows.
 */
export function AnalyticsConsent() {
  const publicConfig = usePublicConfig();
  const measurementId =
    publicConfig.status === 'ready' ? (publicConfig.config?.gaMeasurementId ?? null) : null;
  const [asking, setAsking] = useState(false);
  const banner = useRef<HTMLElement>(null);

  const ready = publicConfig.status === 'ready';
  useEffect(() => {
    analytics.configure(measurementId);
    setAsking(analytics.shouldAsk());
    // Once the server said whether there are analytics: a Google/Microsoft sign-in's event goes out now.
    if (ready) trackAuthRedirect();
  }, [measurementId, ready]);

  // Fixed at the bottom, it must not hide the end of the page: the page gets room for it.
  useLayoutEffect(() => {
    const element = banner.current;
    if (!asking || !element) return;
    const body = document.body;
    const pad = () => body.style.setProperty('padding-bottom', `${element.offsetHeight}px`);
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(element);
    return () => {
      observer.disconnect();
      body.style.removeProperty('padding-bottom');
    };
  }, [asking]);

  function answer(consent: Consent) {
    analytics.setConsent(consent);
    setAsking(false);
  }

  if (!asking) return null;
  return (
    <section ref={banner} className="consent-banner" aria-label="Analytics consent">
      <p className="mb-0 small">
        May we use Google Analytics cookies to learn how visitors use this site? Nothing is loaded unless you
        accept. <Link to={SCREENS.privacy}>Privacy Policy</Link>
      </p>
      <div className="consent-actions">
        {/* Bootstrap's button markup: the banner is on every page, react-bootstrap's Button is not needed. */}
        <button type="button" className="btn btn-primary btn-sm" onClick={() => answer('granted')}>
          Accept
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => answer('denied')}>
          Decline
        </button>
        <button
          type="button"
          className="btn-close"
          aria-label="Close without answering"
          onClick={() => setAsking(false)}
        />
      </div>
    </section>
  );
}
