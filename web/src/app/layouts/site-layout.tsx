import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AnalyticsConsentWhenNeeded } from '../../components/analytics-consent-when-needed';
import { Footer } from '../../components/footer';
import { Loading } from '../../components/loading';
import { RouteNotice } from '../../components/route-notice';
import { ScrollRestoration } from '../../components/scroll-restoration';
import { MAIN_ID, SkipLink } from '../../components/skip-link';
import { useRouteTitle } from '../../lib/title';
import { NavBar } from './nav-bar';

/** Public site: nav bar, the page, footer. */
export function SiteLayout() {
  useRouteTitle();
  return (
    <div className="site d-flex flex-column min-vh-100">
      <SkipLink />
      <NavBar />
      <main className="flex-grow-1" id={MAIN_ID} tabIndex={-1}>
        <RouteNotice />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <AnalyticsConsentWhenNeeded />
      <ScrollRestoration />
    </div>
  );
}
