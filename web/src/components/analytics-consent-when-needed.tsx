import { lazy, Suspense, useState } from 'react';
import { AUTH_EVENT_COOKIE } from '#contract/analytics.js';
import { usePublicConfig } from '../lib/public-config';

// The banner and analytics.ts load only where they have something to do, not with every first visit
// (docs/decisions/044-fast-first-load.md).
const AnalyticsConsent = lazy(() =>
  import('./analytics-consent').then((m) => ({ default: m.AnalyticsConsent })),
);

function hasAuthEventCookie(): boolean {
  return document.cookie.split('; ').some((c) => c.startsWith(`${AUTH_EVENT_COOKIE}=`));
}

/**
 * AnalyticsConsent once the public configuration is known, when the server names a measurement id or a
 * Google/Microsoft sign-in left its event cookie (read and deleted there). Otherwise nothing: without a
 * measurement id analytics.ts drops every event anyway.
 */
export function AnalyticsConsentWhenNeeded() {
  const publicConfig = usePublicConfig();
  const [authEvent] = useState(hasAuthEventCookie);
  if (publicConfig.status !== 'ready') return null;
  if (!publicConfig.config?.gaMeasurementId && !authEvent) return null;
  return (
    <Suspense fallback={null}>
      <AnalyticsConsent />
    </Suspense>
  );
}
