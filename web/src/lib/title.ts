// The browser tab's title of every screen: each route names its screen in `handle.title` (app/routes.tsx) and the
// layouts set document.title from the deepest route that has one.
import { createContext, useContext, useEffect, useLayoutEffect, useMemo } from 'react';
import { matchRoutes, type RouteObject, useLocation } from 'react-router';
import { documentTitle } from '#contract/pages.js';

// The product's name and the "<title> — Inbox Genie" format are the contract's, shared with the server's
// per-page HTML (contract/pages.ts).
export { documentTitle, PRODUCT_NAME } from '#contract/pages.js';

export interface RouteHandle {
  title?: string | null;
}

/** The title of the deepest matched route that names one. */
export function routeTitle(handles: readonly unknown[]): string | null {
  for (let i = handles.length - 1; i >= 0; i--) {
    const title = (handles[i] as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return null;
}

/** The app's route table (app/routes.tsx), for matching the current address to its routes' handles. */
export const RouteTableContext = createContext<RouteObject[]>([]);

/** The handles of the routes the current address matches, outermost first. */
function useRouteHandles(): unknown[] {
  const routes = useContext(RouteTableContext);
  const { pathname } = useLocation();
  return useMemo(() => (matchRoutes(routes, pathname) ?? []).map((m) => m.route.handle), [routes, pathname]);
}

/** Sets document.title for the screen being shown. */
export function useRouteTitle(): void {
  const title = routeTitle(useRouteHandles());
  // A layout effect: it runs before the screens' effects of the same render, so that a screen naming
  // itself from its data (useScreenTitle) is not overwritten by its route's title.
  useLayoutEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

/**
 * For a screen whose title comes from its data (a blog post's): `title` once known, the route's own
 * title until then.
 */
export function useScreenTitle(title: string | null | undefined): void {
  const fallback = routeTitle(useRouteHandles());
  useEffect(() => {
    document.title = documentTitle(title || fallback);
  }, [title, fallback]);
}
