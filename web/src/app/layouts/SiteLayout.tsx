import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { useRouteTitle } from '../title';
import { AnalyticsConsentWhenNeeded } from './AnalyticsConsentWhenNeeded';
import { Footer } from './Footer';
import { Loading } from './Loading';
import { NavBar } from './NavBar';
import { RouteNotice } from './RouteNotice';
import { ScrollRestoration } from './ScrollRestoration';
import { MAIN_ID, SkipLink } from './SkipLink';

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
