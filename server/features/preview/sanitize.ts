import sanitizeHtml from 'sanitize-html';

// The preview of a message: the mail's HTML reduced to an allow-list of formatting, so that no
// script runs, no form posts, nothing is embedded, and no remote image is requested unless the user asks.
// The document also carries a Content-Security-Policy of its own as a second line of defence.

export interface PreviewOptions {
  /** Keep http(s) images; otherwise every remote image becomes a local placeholder. */
  loadImages?: boolean;
}

export const IMAGE_NOT_LOADED = 'Image not loaded';

/** A small grey box, inline: showing it requests nothing. */
export const IMAGE_PLACEHOLDER = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">' +
    '<rect width="48" height="48" fill="#e9ecef"/>' +
    '<path d="M12 34l8-10 6 7 4-5 6 8z" fill="#adb5bd"/><circle cx="31" cy="17" r="4" fill="#adb5bd"/></svg>',
)}`;

const TAGS = [
  'a',
  'abbr',
  'address',
  'b',
  'bdi',
  'bdo',
  'big',
  'blockquote',
  'br',
  'caption',
  'center',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'font',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'tt',
  'u',
  'ul',
  'var',
  'wbr',
];

const CELL = ['align', 'valign', 'width', 'height', 'bgcolor', 'colspan', 'rowspan', 'nowrap'];

const ATTRIBUTES: sanitizeHtml.IOptions['allowedAttributes'] = {
  '*': ['style', 'align', 'dir', 'lang', 'title', 'class'],
  a: ['href', 'name', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'border'],
  font: ['color', 'face', 'size'],
  table: ['width', 'height', 'border', 'cellpadding', 'cellspacing', 'bgcolor', 'role'],
  td: CELL,
  th: CELL,
  tr: ['align', 'valign', 'bgcolor', 'height'],
  col: ['span', 'width'],
  colgroup: ['span', 'width'],
  ol: ['start', 'type'],
  ul: ['type'],
  li: ['value'],
};

// Anything in a style attribute that can fetch or run: url(), image-set(), @import, expression(), and CSS
// escapes (which could spell any of them).
const UNSAFE_STYLE = /url\s*\(|image-set|@import|expression\s*\(|javascript:|behavior|-moz-binding|\\/i;
const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp|bmp|svg\+xml)[;,]/i;
const REMOTE = /^https?:\/\//i;
// Tags dropped with their content, not just unwrapped.
const DROP_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'noscript',
  'title',
  'head',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'form',
  'button',
];

/** Sanitizes the HTML body of a message (see the file comment). */
export function sanitizeMessageHtml(html: string, { loadImages = false }: PreviewOptions = {}): string {
  return sanitizeHtml(html, {
    allowedTags: TAGS,
    allowedAttributes: ATTRIBUTES,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: DROP_WITH_CONTENT,
    transformTags: {
      '*': (tagName, attribs) => {
        const out = { ...attribs };
        if (out.style !== undefined && UNSAFE_STYLE.test(out.style)) delete out.style;
        if (tagName === 'a') {
          out.target = '_blank';
          out.rel = 'noopener noreferrer';
        }
        if (tagName === 'img') return image(out, loadImages);
        return { tagName, attribs: out };
      },
    },
    // An image left without a source (see image()) is dropped entirely.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  });
}

function image(attribs: sanitizeHtml.Attributes, loadImages: boolean): sanitizeHtml.Tag {
  const raw = (attribs.src ?? '').trim();
  const src = raw.startsWith('//') ? `https:${raw}` : raw;
  const out: sanitizeHtml.Attributes = { ...attribs };
  delete out.srcset;
  if (DATA_IMAGE.test(src)) return { tagName: 'img', attribs: { ...out, src } };
  if (REMOTE.test(src)) {
    if (loadImages) return { tagName: 'img', attribs: { ...out, src } };
    return {
      tagName: 'img',
      attribs: { ...out, src: IMAGE_PLACEHOLDER, alt: IMAGE_NOT_LOADED, title: IMAGE_NOT_LOADED },
    };
  }
  // cid: parts, relative paths, other schemes: nothing the preview can show.
  return { tagName: 'img', attribs: {} };
}

export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Content-Security-Policy of a preview document. */
export function previewCsp(loadImages: boolean): string {
  const img = loadImages ? 'data: https: http:' : 'data:';
  return `default-src 'none'; img-src ${img}; style-src 'unsafe-inline'`;
}

/** The complete preview document: the sanitized HTML, or the plain text escaped in a `<pre>`. */
export function previewDocument(
  body: { html?: string | null; text?: string | null },
  options: PreviewOptions = {},
) {
  const loadImages = options.loadImages ?? false;
  const content = body.html
    ? sanitizeMessageHtml(body.html, { loadImages })
    : `<pre style="white-space: pre-wrap; word-wrap: break-word; font-family: inherit">${escapeHtml(body.text ?? '')}</pre>`;
  return [
    '<!DOCTYPE html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${previewCsp(loadImages)}">`,
    '<meta name="referrer" content="no-referrer">',
    '</head>',
    `<body>${content}</body>`,
    '</html>',
  ].join('\n');
}
