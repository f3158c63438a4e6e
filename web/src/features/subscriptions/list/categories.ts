import type { SubscriptionCategory } from '#contract/api.js';

/** The values /genie/:category accepts (docs/product.md §2); subscriptions is the uncategorized list. */
export const CATEGORY_ROUTES = ['subscriptions', 'uncategorized', 'kept', 'unsubscribed'] as const;
export type CategoryRoute = (typeof CATEGORY_ROUTES)[number];

export interface CategoryView {
  category: SubscriptionCategory;
  heading: string;
  /** Follows the count, e.g. "3 Subscriptions Left to Review". */
  caption: string;
}

const UNCATEGORIZED: CategoryView = {
  category: 'uncategorized',
  heading: 'Subscriptions',
  caption: 'Subscriptions Left to Review',
};

export const CATEGORY_VIEWS: Record<CategoryRoute, CategoryView> = {
  subscriptions: UNCATEGORIZED,
  uncategorized: UNCATEGORIZED,
  kept: { category: 'kept', heading: 'Screened Subscriptions', caption: 'Subscriptions Kept' },
  unsubscribed: {
    category: 'unsubscribed',
    heading: 'Unsubscribed',
    caption: 'Subscriptions Unsubscribed From',
  },
};

export function isCategoryRoute(value: string | undefined): value is CategoryRoute {
  return (CATEGORY_ROUTES as readonly string[]).includes(value ?? '');
}
