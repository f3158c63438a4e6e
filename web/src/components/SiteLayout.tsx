import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { Footer } from './Footer';
import { Loading } from './Loading';
import { NavBar } from './NavBar';

/** Public site: nav bar, the page, footer. */
export function SiteLayout() {
  return (
    <div className="site d-flex flex-column min-vh-100">
      <NavBar />
      <main className="flex-grow-1">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
