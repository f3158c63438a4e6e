import { PRODUCT_NAME } from '../../lib/title';

/** The heading of /blog. */
export const BLOG_NAME = `The ${PRODUCT_NAME} Blog`;
