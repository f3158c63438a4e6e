import { z } from 'zod';

// The blog (docs/product.md §2 blog screens, §3 blog entry, §7, §9 page size)

/** Posts per page of /blog. */
export const BLOG_PAGE_SIZE = 9;

/** A post's id: a markdown file's name in content/blog, or a Contentful entry's sys.id. */
export const BLOG_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const blogImageSchema = z.object({
  /** Absolute https URL, or a path on this site (posts from the repository). */
  url: z.string(),
  alt: z.string(),
});

export const blogPostSummarySchema = z.object({
  id: z.string().regex(BLOG_ID_PATTERN),
  title: z.string(),
  summary: z.string(),
  /** ISO date (YYYY-MM-DD) the post was created; the screens show it in US English. */
  date: z.string(),
  image: blogImageSchema.nullable(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

/** GET /get-blog-posts: every post, newest first; the list screen pages them BLOG_PAGE_SIZE at a time. */
export const blogListResponseSchema = z.object({
  items: z.array(blogPostSummarySchema),
  total: z.number().int().nonnegative(),
});
export type BlogListResponse = z.infer<typeof blogListResponseSchema>;

/** GET /get-blog-post/:id: one post with its markdown body (404 {message} when there is none). */
export const blogPostSchema = blogPostSummarySchema.extend({ content: z.string() });
export type BlogPost = z.infer<typeof blogPostSchema>;

export const blogPostParamsSchema = z.object({
  id: z.string().regex(BLOG_ID_PATTERN, { error: 'No such post.' }),
});
