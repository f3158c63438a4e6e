import { useQuery } from '@tanstack/react-query';
import { blogListResponseSchema, blogPostSchema } from '#contract/api.js';
import { API } from '#contract/routes.js';
import { api } from '../../../lib/api-client';

/** Every post's card, newest first (GET /get-blog-posts): public, no session needed. */
export const getBlogPosts = () => api.get(API.blogPosts, blogListResponseSchema);
/** One post with its markdown (GET /get-blog-post/:id). */
export const getBlogPost = (id: string) => api.get(API.blogPost(id), blogPostSchema);

/** The same for everyone. */
const blogKeys = {
  posts: ['blog-posts'] as const,
  post: (id: string) => ['blog-post', id] as const,
};

// Posts change with a deploy, not while someone reads: kept for the visit once fetched.
const FIVE_MINUTES = 5 * 60 * 1000;

/** Every post's card, newest first. A failure is only logged: the list stays empty. */
export function useBlogPosts() {
  return useQuery({
    queryKey: blogKeys.posts,
    queryFn: getBlogPosts,
    staleTime: FIVE_MINUTES,
    meta: { errorMessage: 'Failed to fetch blog posts...' },
  });
}

/** One post with its markdown; `enabled` false for an id no post can have. */
export function useBlogPost(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: blogKeys.post(id),
    queryFn: () => getBlogPost(id),
    enabled,
    staleTime: FIVE_MINUTES,
    meta: { errorMessage: 'Failed to fetch the blog post...' },
  });
}
