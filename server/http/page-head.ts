// The <head> the server writes into the SPA's index.html for one path: title, description, canonical URL,
// Open Graph and Twitter cards, robots, and a post's JSON-LD. Crawlers and link previews read these from
// the HTML without running the app. Every value is escaped here, once: post titles come from writers
// (or a CMS) and must not be able to add markup.

import { documentTitle, PRODUCT_NAME } from '#contract/pages.js';

export interface HeadTags {
  /** The screen's title, without the product's name (null: the product's name alone). */
  title: string | null;
  description: string;
  /** Absolute URL of the page; none for pages that are not to be indexed. */
  canonical: string | null;
  /** Open Graph type: website, or article for a post. */
  type?: 'website' | 'article';
  /** Absolute URL of the sharing image, and what it shows. */
  image?: { url: string; alt: string } | null;
  /** robots meta ("noindex" for private and missing pages). */
  robots?: string;
  /** Structured data: written as <script type="application/ld+json">, which browsers never execute. */
  jsonLd?: Record<string, unknown>;
  /** Open Graph article:published_time (YYYY-MM-DD). */
  published?: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value -> HTML that shows it as text. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON for inside <script>: `<`, `>` and `&` as \u escapes, so no value can write `</script>` or `<!--`
 * and end the element; U+2028/2029 too (valid in JSON, not in older script parsers).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A path of this site or an absolute URL -> an absolute URL. */
export function absoluteUrl(publicUrl: string, url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${publicUrl}${url}` : url;
}

export function renderTags(tags: HeadTags): string {
  const title = documentTitle(tags.title);
  const meta = (attr: 'name' | 'property', key: string, content: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  const lines = [`<title>${escapeHtml(title)}</title>`, meta('name', 'description', tags.description)];
  if (tags.robots) lines.push(meta('name', 'robots', tags.robots));
  if (tags.canonical) lines.push(`<link rel="canonical" href="${escapeHtml(tags.canonical)}" />`);
  lines.push(
    meta('property', 'og:site_name', PRODUCT_NAME),
    meta('property', 'og:title', tags.title ?? PRODUCT_NAME),
    meta('property', 'og:description', tags.description),
    meta('property', 'og:type', tags.type ?? 'website'),
  );
  if (tags.canonical) lines.push(meta('property', 'og:url', tags.canonical));
  if (tags.published) lines.push(meta('property', 'article:published_time', tags.published));
  if (tags.image) {
    lines.push(
      meta('property', 'og:image', tags.image.url),
      meta('property', 'og:image:alt', tags.image.alt),
    );
  }
  lines.push(
    meta('name', 'twitter:card', tags.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', tags.title ?? PRODUCT_NAME),
    meta('name', 'twitter:description', tags.description),
  );
  if (tags.image) {
    lines.push(
      meta('name', 'twitter:image', tags.image.url),
      meta('name', 'twitter:image:alt', tags.image.alt),
    );
  }
  if (tags.jsonLd) lines.push(`<script type="application/ld+json">${scriptJson(tags.jsonLd)}</script>`);
  return lines.map((line) => `    ${line}`).join('\n');
}

/**
 * index.html split where the page's tags go: its own <title> and meta description are taken out (each page
 * writes its own), and the tags are placed where the title was, or before </head>, or at the start.
 */
export function splitTemplate(html: string): { before: string; after: string } {
  const withoutDescription = html.replace(/[ \t]*<meta\s+name=["']description["'][^>]*>[ \t]*\r?\n?/i, '');
  const title = /[ \t]*<title>[\s\S]*?<\/title>[ \t]*\r?\n?/i.exec(withoutDescription);
  if (title) {
    return {
      before: withoutDescription.slice(0, title.index),
      after: withoutDescription.slice(title.index + title[0].length),
    };
  }
  const headEnd = withoutDescription.search(/<\/head>/i);
  if (headEnd >= 0) {
    return { before: withoutDescription.slice(0, headEnd), after: withoutDescription.slice(headEnd) };
  }
  return { before: '', after: withoutDescription };
}

/** schema.org BlogPosting of one post. */
export function blogPostingJsonLd(post: {
  title: string;
  summary: string;
  date: string;
  url: string;
  image: string | null;
}): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.summary,
    datePublished: post.date,
    ...(post.image && { image: post.image }),
    url: post.url,
    mainEntityOfPage: post.url,
    publisher: { '@type': 'Organization', name: PRODUCT_NAME },
  };
}
