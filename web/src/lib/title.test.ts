import { describe, expect, it } from 'vitest';
import { documentTitle, routeTitle } from './title';

describe('the document title', () => {
  it('names the screen, then the product', () => {
    expect(documentTitle('Pricing')).toBe('Pricing — Inbox Genie');
    expect(documentTitle(null)).toBe('Inbox Genie');
    expect(routeTitle([undefined, { title: 'Dashboard' }, { title: 'Billing' }])).toBe('Billing');
    expect(routeTitle([{ title: 'Site' }, {}, undefined])).toBe('Site');
    expect(routeTitle([])).toBeNull();
  });
});
