// Google Analytics 4, only with the visitor's consent (docs/decisions/042-analytics-only-with-consent.md). Nothing is loaded,
// no cookie is set and no event leaves the page unless both hold: the server names a measurement id
// (`publicConfig.gaMeasurementId`) and the visitor pressed Accept on the consent banner (remembered in
// localStorage). Without them events are dropped, not queued. gtag.js is added to the page only then.

import { AUTH_EVENT_COOKIE, parseAuthEvent } from '#contract/analytics.js';

/** The visitor's answer on the consent banner; null: not asked yet. */
export type Consent = 'granted' | 'denied';

export const CONSENT_STORAGE_KEY = 'inbox-genie.analytics-consent';

/** docs/product.md §9: the analytics client id is awaited up to 500 ms. */
export const CLIENT_ID_WAIT_MS = 500;

export const GTAG_SRC = 'https://www.googletagmanager.com/gtag/js';

export type AnalyticsParams = Record<string, unknown>;

type Gtag = (...args: unknown[]) => void;

/** Where the module lives: the page (window, localStorage, document) or a test's fakes. */
export interface AnalyticsEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** Adds `<script async src>` to the page. */
  loadScript: (src: string) => void;
  /** The global object gtag.js reads (`dataLayer`) and we call (`gtag`). */
  global: { dataLayer?: unknown[]; gtag?: Gtag };
  setTimeout: (run: () => void, ms: number) => unknown;
}

export interface Analytics {
  /** The server's measurement id (null: no analytics on this server). Loads gtag.js if consent was given. */
  configure: (measurementId: string | null) => void;
  consent: () => Consent | null;
  /** The banner's answer: remembered; Accept loads gtag.js. */
  setConsent: (consent: Consent) => void;
  /** Whether the banner should ask: analytics configured and no answer yet. */
  shouldAsk: () => boolean;
  /** Sends a GA4 event, or drops it (no consent, no measurement id). */
  track: (event: string, params?: AnalyticsParams) => void;
  /** GA's client id, awaited up to CLIENT_ID_WAIT_MS; null without analytics or consent. */
  clientId: () => Promise<string | null>;
  /** Whether gtag.js was added to the page. */
  loaded: () => boolean;
}

export function createAnalytics(env: AnalyticsEnv): Analytics {
  let measurementId: string | null = null;
  let gtag: Gtag | null = null;

  function consent(): Consent | null {
    try {
      const value = env.storage?.getItem(CONSENT_STORAGE_KEY);
      return value === 'granted' || value === 'denied' ? value : null;
    } catch {
      return null;
    }
  }

  function active(): Gtag | null {
    return gtag && measurementId && consent() === 'granted' ? gtag : null;
  }

  function load(): void {
    if (gtag || !measurementId || consent() !== 'granted') return;
    env.global.dataLayer ??= [];
    const dataLayer = env.global.dataLayer;
    // gtag.js reads the arguments objects themselves from the data layer, not arrays.
    const push: Gtag = function gtag() {
      // biome-ignore lint/complexity/noArguments: gtag.js expects the arguments object
      dataLayer.push(arguments);
    };
    env.global.gtag = push;
    gtag = push;
    // Analytics only: never advertising storage or personalisation.
    push('consent', 'default', {
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'granted',
    });
    push('js', new Date());
    push('config', measurementId);
    env.loadScript(`${GTAG_SRC}?id=${encodeURIComponent(measurementId)}`);
  }

  return {
    configure(id) {
      measurementId = id || null;
      load();
    },
    consent,
    setConsent(value) {
      try {
        env.storage?.setItem(CONSENT_STORAGE_KEY, value);
      } catch {
        // Storage refused (private mode): the answer holds for this page only.
      }
      if (value === 'granted') load();
    },
    shouldAsk: () => measurementId !== null && consent() === null,
    track(event, params = {}) {
      active()?.('event', event, params);
    },
    clientId() {
      const send = active();
      if (!send || !measurementId) return Promise.resolve(null);
      return new Promise((resolve) => {
        env.setTimeout(() => resolve(null), CLIENT_ID_WAIT_MS);
        send('get', measurementId, 'client_id', (id: unknown) =>
          resolve(typeof id === 'string' && id ? id : null),
        );
      });
    },
    loaded: () => gtag !== null,
  };
}

function browserEnv(): AnalyticsEnv {
  const page = typeof window === 'undefined' ? null : window;
  let storage: AnalyticsEnv['storage'] = null;
  try {
    storage = page?.localStorage ?? null;
  } catch {
    storage = null;
  }
  return {
    storage,
    loadScript(src) {
      const script = document.createElement('script');
      script.async = true;
      script.src = src;
      document.head.appendChild(script);
    },
    global: (page ?? {}) as AnalyticsEnv['global'],
    setTimeout: (run, ms) => setTimeout(run, ms),
  };
}

/**
 * The sign-up or login a Google/Microsoft sign-in just made (the server's one-minute cookie), sent once:
 * the cookie is deleted when read, whether or not the visitor consented to analytics.
 */
export function trackAuthRedirect(
  page: { cookie: string } = document,
  send: Analytics['track'] = track,
): void {
  const entry = page.cookie
    .split('; ')
    .find((c) => c.startsWith(`${AUTH_EVENT_COOKIE}=`))
    ?.slice(AUTH_EVENT_COOKIE.length + 1);
  if (entry === undefined) return;
  page.cookie = `${AUTH_EVENT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  const done = parseAuthEvent(decodeURIComponent(entry));
  if (done) send(done.event, { method: done.method });
}

/** The page's analytics. */
export const analytics = createAnalytics(browserEnv());

export const track: Analytics['track'] = (event, params) => analytics.track(event, params);
export const analyticsClientId: Analytics['clientId'] = () => analytics.clientId();
