import { useEffect, useState } from 'react';

// docs/product.md §2: the sender logo comes from a logo service by the address's domain, with a default mail
// image when it cannot be loaded. The service's address comes from GET /get-public-config
// (`logoBaseUrl`); null means the default image always, and no request leaves the product.

const MAIL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#e7ecf7"/>' +
  '<rect x="9" y="12" width="22" height="16" rx="2" fill="none" stroke="#4a5d8c" stroke-width="2"/>' +
  '<path d="M10 14l10 7 10-7" fill="none" stroke="#4a5d8c" stroke-width="2" stroke-linejoin="round"/></svg>';

/** The default mail image, inline so that it never needs a request. */
export const DEFAULT_LOGO = `data:image/svg+xml,${encodeURIComponent(MAIL_SVG)}`;

/** The logo address of a domain at the logo service, or null when there is no service or domain. */
export function logoUrl(baseUrl: string | null | undefined, domain: string): string | null {
  const base = baseUrl?.trim().replace(/\/+$/, '');
  const host = domain.trim().toLowerCase();
  if (!base || !host) return null;
  return `${base}/${encodeURIComponent(host)}`;
}

/** Each logo is tried once per page load; the answer (loaded or not) is shared by every row. */
const attempts = new Map<string, Promise<boolean>>();

function preload(url: string): Promise<boolean> {
  let attempt = attempts.get(url);
  if (!attempt) {
    attempt = new Promise<boolean>((resolve) => {
      const image = new Image();
      image.onload = () => resolve(image.naturalWidth > 0);
      image.onerror = () => resolve(false);
      image.src = url;
    });
    attempts.set(url, attempt);
  }
  return attempt;
}

/** The default image first; the logo replaces it only once it has loaded. */
export function SenderLogo({ domain, baseUrl }: { domain: string; baseUrl: string | null }) {
  const url = logoUrl(baseUrl, domain);
  const [loaded, setLoaded] = useState<string | null>(null);

  useEffect(() => {
    if (!url) return;
    let active = true;
    preload(url).then((ok) => {
      if (active && ok) setLoaded(url);
    });
    return () => {
      active = false;
    };
  }, [url]);

  return (
    <img
      className="sender-logo"
      src={url && loaded === url ? url : DEFAULT_LOGO}
      alt=""
      width={40}
      height={40}
    />
  );
}
