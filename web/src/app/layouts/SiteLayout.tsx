import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AnalyticsConsentWhenNeeded } from '../../components/AnalyticsConsentWhenNeeded';
import { Footer } from '../../components/Footer';
import { Loading } from '../../components/Loading';
import { RouteNotice } from '../../components/RouteNotice';
import { ScrollRestoration } from '../../components/ScrollRestoration';
import { MAIN_ID, SkipLink } from '../../components/SkipLink';
import { useRouteTitle } from '../../lib/title';
import { NavBar } from './NavBar';

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
