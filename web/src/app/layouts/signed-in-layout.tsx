import { Suspense, useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AnalyticsConsentWhenNeeded } from '../../components/analytics-consent-when-needed';
import { Loading } from '../../components/loading';
import { RequireSession } from '../../components/require-session';
import { ScrollRestoration } from '../../components/scroll-restoration';
import { MAIN_ID, SkipLink } from '../../components/skip-link';
import { ToastProvider, ToastRegion } from '../../components/toasts';
import { AddressBanner, takeReturnPath } from '../../features/auth';
import { useRouteTitle } from '../../lib/title';
import { useLiveUpdates } from '../live-updates';
import { Sidebar } from './sidebar';

const SIDEBAR_ID = 'signed-in-sidebar';

/** The signed-in area: session gate, sidebar (behind a hamburger at ≤768px) and the screen. */
export default function SignedInLayout() {
  return (
    <RequireSession>
      <SignedInShell />
    </RequireSession>
  );
}

function SignedInShell() {
  useRouteTitle();
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebarRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // The live events keep the cached lists and mailboxes current on every screen of the area.
  useLiveUpdates();

  // A Google or Microsoft sign-in lands here; a visitor who left another screen to sign up goes back there.
  useEffect(() => {
    const back = takeReturnPath();
    if (back) navigate(back, { replace: true });
  }, [navigate]);

  // A new screen closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => setMenuOpen(false), [pathname]);

  // A click outside the sidebar (or Escape) closes it.
  useEffect(() => {
    if (!menuOpen) return;
    function onPointer(event: MouseEvent | TouchEvent) {
      const target = event.target as Node;
      if (sidebarRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setMenuOpen(false);
    }
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') setMenuOpen(false);
    }
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('touchstart', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('touchstart', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);

  // The notes' provider holds the sidebar too (a failed logout); their one region is in the main landmark.
  return (
    <ToastProvider>
      <div className="signed-in">
        <SkipLink />
        <header className="signed-in-topbar">
          <button
            ref={buttonRef}
            type="button"
            className="hamburger"
            aria-label="Open menu"
            aria-controls={SIDEBAR_ID}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true" />
            <span aria-hidden="true" />
            <span aria-hidden="true" />
          </button>
          <span className="signed-in-topbar-brand">Inbox Genie</span>
        </header>
        <Sidebar ref={sidebarRef} id={SIDEBAR_ID} open={menuOpen} />
        <main className="signed-in-main" id={MAIN_ID} tabIndex={-1}>
          <AddressBanner />
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
          <ToastRegion />
        </main>
        <AnalyticsConsentWhenNeeded />
        <ScrollRestoration />
      </div>
    </ToastProvider>
  );
}
