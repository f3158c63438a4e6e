import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PostBody } from './post-body';

const render = (markdown: string) => renderToStaticMarkup(<PostBody markdown={markdown} />);

describe("a post's markdown", () => {
  it('empties link and image addresses of other schemes than the safe ones', () => {
    const html = render(
      '[x](javascript:alert(1)) [v](vbscript:msgbox) ![y](data:text/html,<b>hi</b>) [ok](https://example.com/a) [rel](/pricing) [m](mailto:hi@example.com)',
    );
    expect(html).toContain('<a href="">x</a>');
    expect(html).toContain('<a href="">v</a>');
    // An emptied image address leaves the image without a src.
    expect(html).toMatch(/<img alt="y"/);
    expect(html).toContain('href="https://example.com/a"');
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('href="mailto:hi@example.com"');
    expect(html).not.toMatch(/javascript:|vbscript:|data:text/);
  });

  it('never renders raw HTML as elements', () => {
    const html = render('<script>window.__pwned=1</script>\n\nText <img src=x onerror="alert(1)"> after');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<img[^>]*onerror/);
  });

  it('renders tables in a scrolling box and task lists with disabled boxes', () => {
    const html = render('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] to do\n');
    expect(html).toMatch(/<div class="blog-table-scroll"><table class="table table-bordered table-sm">/);
    expect(html).toContain('<td>1</td>');
    expect(html.match(/<input type="checkbox" disabled=""/g)).toHaveLength(2);
    expect(html).toContain('checked=""');
  });

  it('loads body images lazily and keeps their alt text', () => {
    const html = render('![A chart](/images/chart.png)');
    expect(html).toMatch(/<img src="\/images\/chart.png" alt="A chart" loading="lazy"/);
  });
});
