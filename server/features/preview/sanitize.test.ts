import { describe, expect, it } from 'vitest';
import { IMAGE_NOT_LOADED, IMAGE_PLACEHOLDER, previewDocument, sanitizeMessageHtml } from './sanitize.js';

const clean = (html: string, loadImages = false) => sanitizeMessageHtml(html, { loadImages });

describe('sanitizeMessageHtml', () => {
  it('drops scripts with their content', () => {
    const out = clean('<p>Hi</p><script>alert("x")</script><noscript>ns</noscript>');
    expect(out).toBe('<p>Hi</p>');
  });

  it('drops on* event handlers', () => {
    const out = clean(
      '<p onclick="x()" onmouseover="y()">Hi</p><img src="data:image/png;base64,AA" onerror="z()">',
    );
    expect(out).not.toMatch(/on\w+=/i);
    expect(out).toContain('<p>Hi</p>');
  });

  it('drops javascript: and data: links but keeps https and mailto', () => {
    const out = clean(
      '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt&colon;alert(1)">b</a>' +
        '<a href="data:text/html,<script>1</script>">c</a><a href="https://ok.example/">d</a>' +
        '<a href="mailto:me@example.com">e</a>',
    );
    expect(out).not.toMatch(/javascript|data:/i);
    expect(out).toContain('href="https://ok.example/"');
    expect(out).toContain('href="mailto:me@example.com"');
  });

  it('drops forms, inputs and buttons', () => {
    const out = clean(
      '<form action="https://evil.example/steal" method="post"><input name="pw" type="password">' +
        '<button type="submit">Go</button><select><option>1</option></select><textarea>t</textarea></form><p>after</p>',
    );
    expect(out).not.toMatch(/<form|<input|<button|<select|<textarea|evil/i);
    expect(out).toContain('<p>after</p>');
  });

  it('drops iframes, objects and embeds', () => {
    const out = clean(
      '<iframe src="https://evil.example/"></iframe><object data="https://evil.example/x.swf"></object>' +
        '<embed src="https://evil.example/e"><p>ok</p>',
    );
    expect(out).toBe('<p>ok</p>');
  });

  it('drops a meta refresh, base and an external stylesheet', () => {
    const out = clean(
      '<html><head><meta http-equiv="refresh" content="0;url=https://evil.example/">' +
        '<base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/x.css">' +
        '<style>body { background: url(https://evil.example/bg.png) }</style></head><body><p>ok</p></body></html>',
    );
    expect(out).not.toMatch(/<meta|<base|<link|<style|evil/i);
    expect(out).toContain('<p>ok</p>');
  });

  it('keeps harmless inline styles and drops a style attribute with url()', () => {
    const out = clean(
      '<p style="color: red">a</p><div style="background-image: url(\'https://evil.example/bg.png\')">b</div>' +
        '<div style="background: u\\72l(https://evil.example/x)">c</div>',
    );
    expect(out).toContain('<p style="color:red">a</p>');
    expect(out).not.toContain('evil');
    expect(out).toContain('<div>b</div>');
  });

  it('replaces remote images with the placeholder and removes srcset', () => {
    const out = clean(
      '<img src="https://track.example/open.gif" srcset="https://track.example/2x.gif 2x" alt="Logo">' +
        '<img src="http://plain.example/a.png"><img src="//cdn.example/b.png">',
    );
    expect(out).not.toMatch(/track\.example|plain\.example|cdn\.example|srcset/);
    expect(out.match(/<img /g)).toHaveLength(3);
    expect(out).toContain(`src="${IMAGE_PLACEHOLDER}"`);
    expect(out).toContain(`alt="${IMAGE_NOT_LOADED}"`);
  });

  it('keeps https images when asked to load them, still without srcset', () => {
    const out = clean(
      '<img src="https://cdn.example/logo.png" srcset="https://cdn.example/2x.png 2x">',
      true,
    );
    expect(out).toBe('<img src="https://cdn.example/logo.png" />');
  });

  it('drops cid: images and keeps inline data: images', () => {
    const out = clean(
      '<img src="cid:logo@x"><img src="data:image/png;base64,AAAA"><img src="data:text/html,x">',
    );
    expect(out).toBe('<img src="data:image/png;base64,AAAA" />');
  });

  it('opens every link in a new tab without an opener or referrer', () => {
    const out = clean('<a href="https://ok.example/" target="_self" rel="opener">x</a>');
    expect(out).toBe('<a href="https://ok.example/" target="_blank" rel="noopener noreferrer">x</a>');
  });
});

describe('previewDocument', () => {
  it('escapes a text-only mail in a <pre>', () => {
    const doc = previewDocument({ html: null, text: '<script>alert(1)</script> & "quotes"' });
    expect(doc).toContain('<pre');
    expect(doc).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;</pre>');
    expect(doc).not.toContain('<script>');
  });

  it('carries a strict Content-Security-Policy, with remote images only when loaded', () => {
    const strict = previewDocument({ html: '<p>x</p>' });
    expect(strict).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    );
    const loaded = previewDocument({ html: '<p>x</p>' }, { loadImages: true });
    expect(loaded).toContain('img-src data: https: http:;');
    expect(loaded).toMatch(/^<!DOCTYPE html>/);
    expect(loaded).toContain('<body><p>x</p></body>');
  });
});
