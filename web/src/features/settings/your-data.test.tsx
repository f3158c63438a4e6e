import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { YourData } from './your-data';

describe('Your data', () => {
  it('links both downloads as plain anchors the browser saves', () => {
    const html = renderToStaticMarkup(<YourData />);
    expect(html).toContain('<a href="/export" download="">Download everything (JSON)</a>');
    expect(html).toContain('<a href="/export.csv" download="">Download the subscription list (CSV)</a>');
  });
});
