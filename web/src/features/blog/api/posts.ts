import { useQuery } from '@tanstack/react-query';
import { getBlogPost, getBlogPosts } from '../../api/calls';
import { queryKeys } from '../../lib/query-keys';

// Posts change with a deploy, not while someone reads: kept for the visit once fetched.
const FIVE_MINUTES = 5 * 60 * 1000;

/** Every post's card, newest first. A failure is only logged: the list stays empty. */
export function useBlogPosts() {
  return useQuery({
    queryKey: queryKeys.blogPosts,
    queryFn: getBlogPosts,
    staleTime: FIVE_MINUTES,
    meta: { errorMessage: 'Failed to fetch blog posts...' },
  });
}

/** One post with its markdown; `enabled` false for an id no post can have. */
export function useBlogPost(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.blogPost(id),
    queryFn: () => getBlogPost(id),
    enabled,
    staleTime: FIVE_MINUTES,
    meta: { errorMessage: 'Failed to fetch the blog post...' },
  });
}
