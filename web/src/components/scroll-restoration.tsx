// Scroll positions across the app's navigations, as the browser keeps them across page loads: a new screen
// starts at the top (or at its #hash), Back and Forward return where the visitor was, also after a reload.
// React Router's own ScrollRestoration needs its data router, which is most of its size (docs/decisions/044-fast-first-load.md); this is the part the app uses.
import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'inbox-genie.scroll-positions';

/** Where each history entry (by location key) was scrolled to. */
const positions = new Map<string, number>(readSaved());

function readSaved(): Array<[string, number]> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

let installed = false;

/** The browser's own restoration would run before the screen is rendered; the app restores instead. */
function install(): void {
  if (installed) return;
  installed = true;
  window.history.scrollRestoration = 'manual';
  window.addEventListener('pagehide', () => {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-100)));
    } catch {
      // Storage refused (private mode, full): positions are kept for this page only.
    }
  });
}

export function ScrollRestoration() {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();

  // Follows the scroll position of the entry being shown. A layout effect: its cleanup runs in the commit
  // of the next screen, before the browser can report a scroll that the new, shorter page causes.
  useLayoutEffect(() => {
    install();
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, [key]);

  useLayoutEffect(() => {
    if (navigationType === 'POP') {
      const y = positions.get(key);
      if (y !== undefined) window.scrollTo(0, y);
      return;
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, hash, navigationType]);

  return null;
}
